# kjitAot.cmake - kjit_add_kernels(): kernels compiled ahead of time at build
# time (`kjit aot`, docs/aot.md) into a static library target that needs no
# libkjit, no LLVM and no CUDA toolkit (the CUDA driver is loaded at run time).
# Installed with kjit's CMake package; find_package(kjit) includes it.
#
#   kjit_add_kernels(<target>
#     SOURCES kernels.py                    # one kernel file
#     [KERNELS add_kernel matmul ...]       # default: every kernel with eager signatures
#     [SIGS "add_kernel:void(float32[::1], float32[::1], float32[::1])" ...]
#                                           # KERNEL:SIG, or SIG for the file's only kernel
#     [ARCHS sm_80 sm_90]                   # default sm_80
#     [TARGETS all|cuda|cpu]                # default all (GPU code and the CPU fallback)
#     [NAME name]                           # NAME.h / NAME_* symbols (default: the file's name)
#     [PATH dir ...]                        # more folders for imported modules
#     [DEPENDS file ...])                   # more inputs that should regenerate
#
# The library is generated under ${CMAKE_CURRENT_BINARY_DIR}/kjit_aot/<target>
# and that folder is on the target's public include path (#include "NAME.h").
# It is regenerated when the kernel file, a .py file in its folder or in a
# PATH folder (imported modules), a DEPENDS file or the kjit executable
# changes.  kjit_AOT_EXECUTABLE names the kjit used (default: the package's).

include_guard(GLOBAL)

get_filename_component(_kjit_aot_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(kjit_AOT_EXECUTABLE kjit HINTS "${_kjit_aot_prefix}/bin" NO_DEFAULT_PATH)
find_program(kjit_AOT_EXECUTABLE kjit)

function(kjit_add_kernels target)
  cmake_parse_arguments(K "" "NAME;TARGETS" "SOURCES;KERNELS;SIGS;ARCHS;PATH;DEPENDS" ${ARGN})
  list(LENGTH K_SOURCES _n)
  if(NOT _n EQUAL 1)
    message(FATAL_ERROR "kjit_add_kernels(${target}): SOURCES takes one kernel file (got ${_n})")
  endif()
  if(NOT kjit_AOT_EXECUTABLE)
    message(FATAL_ERROR "kjit_add_kernels(${target}): the kjit executable was not found; set kjit_AOT_EXECUTABLE")
  endif()
  get_filename_component(_src "${K_SOURCES}" ABSOLUTE)
  get_filename_component(_dir "${_src}" DIRECTORY)
  if(NOT K_NAME)
    get_filename_component(K_NAME "${_src}" NAME_WE)
    string(MAKE_C_IDENTIFIER "${K_NAME}" K_NAME)
  endif()
  set(_out "${CMAKE_CURRENT_BINARY_DIR}/kjit_aot/${target}")
  # FILE[:KERNEL [--sig SIG]...]...: each SIG after its kernel
  set(_args "")
  foreach(_s IN LISTS K_SIGS)
    if(NOT _s MATCHES "^[A-Za-z_][A-Za-z0-9_]*:")
      list(APPEND _args "${_src}" --sig "${_s}")
    endif()
  endforeach()
  foreach(_k IN LISTS K_KERNELS)
    list(APPEND _args "${_src}:${_k}")
    foreach(_s IN LISTS K_SIGS)
      if(_s MATCHES "^${_k}:(.*)$")
        list(APPEND _args --sig "${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endforeach()
  if(NOT _args)
    set(_args "${_src}")
  endif()
  if(K_ARCHS)
    string(REPLACE ";" "," _archs "${K_ARCHS}")
    list(APPEND _args --arch "${_archs}")
  endif()
  if(K_TARGETS)
    list(APPEND _args --target "${K_TARGETS}")
  endif()
  set(_deps "${_src}" "${kjit_AOT_EXECUTABLE}" ${K_DEPENDS})
  file(GLOB _py CONFIGURE_DEPENDS "${_dir}/*.py")
  list(APPEND _deps ${_py})
  foreach(_p IN LISTS K_PATH)
    get_filename_component(_p "${_p}" ABSOLUTE)
    list(APPEND _args --path "${_p}")
    file(GLOB _py CONFIGURE_DEPENDS "${_p}/*.py")
    list(APPEND _deps ${_py})
  endforeach()
  list(REMOVE_DUPLICATES _deps)
  add_custom_command(
    OUTPUT "${_out}/${K_NAME}.h" "${_out}/${K_NAME}.c"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${_out}"
    COMMAND "${kjit_AOT_EXECUTABLE}" aot ${_args} --name "${K_NAME}" -o "${_out}"
    DEPENDS ${_deps}
    COMMENT "kjit aot ${K_SOURCES} -> ${K_NAME}.h, ${K_NAME}.c"
    VERBATIM)
  add_library(${target} STATIC "${_out}/${K_NAME}.c" "${_out}/${K_NAME}.h")
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${_out}>")
  find_package(Threads REQUIRED)
  target_link_libraries(${target} PUBLIC Threads::Threads ${CMAKE_DL_LIBS} m)
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()
