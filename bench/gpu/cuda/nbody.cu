// nbody.cu - one N-body step, 32768 bodies, float32: accelerations from all
// bodies through 128-body tiles in shared memory (rsqrtf, as libdevice's
// rsqrtf in kernels/nbody.py), then velocity and position into new arrays.
// pos[i] = (x, y, z, mass); vel[i][3] is not read, vel_out[i][3] = 0; 128 threads
// per block.
#include "bench_common.h"

#define TILE 128

__global__ void nbody(const float *pos, const float *vel, float *pos_out, float *vel_out,
                      float dt, float eps2, int n) {
  __shared__ float tile[TILE][4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x;
  float px = i < n ? pos[4 * i + 0] : 0.0f;
  float py = i < n ? pos[4 * i + 1] : 0.0f;
  float pz = i < n ? pos[4 * i + 2] : 0.0f;
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += TILE) {
    int j = base + t;
    for (int c = 0; c < 4; c++)
      tile[t][c] = j < n ? pos[4 * j + c] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) {
      float dx = tile[k][0] - px;
      float dy = tile[k][1] - py;
      float dz = tile[k][2] - pz;
      float r2 = dx * dx + dy * dy + dz * dz + eps2;
      float inv = rsqrtf(r2);
      float s = tile[k][3] * (inv * inv * inv);
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    float vx = vel[4 * i + 0] + dt * ax;
    float vy = vel[4 * i + 1] + dt * ay;
    float vz = vel[4 * i + 2] + dt * az;
    vel_out[4 * i + 0] = vx;
    vel_out[4 * i + 1] = vy;
    vel_out[4 * i + 2] = vz;
    vel_out[4 * i + 3] = 0.0f;
    pos_out[4 * i + 0] = px + dt * vx;
    pos_out[4 * i + 1] = py + dt * vy;
    pos_out[4 * i + 2] = pz + dt * vz;
    pos_out[4 * i + 3] = pos[4 * i + 3];
  }
}

int main(int argc, char **argv) {
  BenchArgs a = bench_args(argc, argv);
  const int n = 32768;
  const size_t nn = (size_t)n * 4;
  const float dt = 0.01f, eps2 = 0.01f;
  std::vector<float> hpos(nn), hvel(nn), hpo(nn), hvo(nn);
  bench_fill_f32(hpos, 12, 0.0, 1.0);
  bench_fill_f32(hvel, 13, -0.5, 0.5);
  float *pos, *vel, *po, *vo;
  CHECK(cudaMalloc(&pos, nn * sizeof(float)));
  CHECK(cudaMalloc(&vel, nn * sizeof(float)));
  CHECK(cudaMalloc(&po, nn * sizeof(float)));
  CHECK(cudaMalloc(&vo, nn * sizeof(float)));
  CHECK(cudaMemcpy(pos, hpos.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(vel, hvel.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(po, 0, nn * sizeof(float)));
  CHECK(cudaMemset(vo, 0, nn * sizeof(float)));
  auto launch = [&] { nbody<<<bench_blocks(n, TILE), TILE>>>(pos, vel, po, vo, dt, eps2, n); };
  launch();
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hpo.data(), po, nn * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hvo.data(), vo, nn * sizeof(float), cudaMemcpyDeviceToHost));
  bench_time("nbody", a, bench_checksum(hpo) + bench_checksum(hvo), launch);
  return 0;
}
