// The tile geometry the kernels of tests/cmake_project share: TILE comes from CMake
// (target_compile_definitions), this header from target_include_directories, and C++17 from
// CXX_STANDARD.
#pragma once
#ifndef TILE
#error "TILE must be defined (target_compile_definitions in CMakeLists.txt)"
#endif
#if __cplusplus < 201703L
#error "the tiles need C++17 (CXX_STANDARD in CMakeLists.txt)"
#endif
#define TILE_ELEMS (TILE * 2)
