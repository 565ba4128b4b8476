/* skyisles world: the mesher's terrain pass (mesher.c) built again for AVX2 and BMI2, picked at
 * run time on x86_64 CPUs that have them: the same source and float operations in the same order,
 * so the same bits; the VEX forms and BMI2 shifts take about an eighth fewer instructions. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__AVX2__)
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("bmi,bmi2"))), apply_to = function)
#else
#pragma GCC target("bmi,bmi2")
#endif
#define MESH_TERRAIN_ONLY 1
#define MESH_TERRAIN_FN mesh_terrain_avx2
#include "mesher.c"
#if defined(__clang__)
#pragma clang attribute pop
#endif
const MeshTerrainFn mesh_terrain_avx2_fn = mesh_terrain_avx2;
#else
#include "world/mesh_internal.h"
const MeshTerrainFn mesh_terrain_avx2_fn = NULL;   /* other targets: the plain build's pass only */
#endif
