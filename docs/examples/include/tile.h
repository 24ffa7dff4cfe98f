/* tile.h - included by kernels.cu through -I docs/examples/include. */
#ifndef TILE
#define TILE 16
#endif
