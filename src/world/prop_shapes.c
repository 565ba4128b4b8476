/* skyisles world: the object and landmark tables (C4, I12): shapes as lists of boxes, flora sets
 * as weighted shape lists with a density, landmarks as shapes looked up by the name the codex
 * gives a location type; and the lookups by name. Placement and meshing: props.c. */
#include "world/props_internal.h"

#include <string.h>

/* ---------------------------------------------------------------- palette */
enum {
    PC_TRUNK, PC_LEAF, PC_LEAF2, PC_CONIFER, PC_SNOW, PC_PALM, PC_JUNGLE, PC_BUSH, PC_ROCK, PC_ROCK2,
    PC_FLOWER_R, PC_FLOWER_Y, PC_CACTUS, PC_DEAD, PC_REED, PC_STONE, PC_WOOD, PC_THATCH, PC_WHITE, PC_RED,
    PC_DARK, PC_LAMP, PC_FIRE, PC_MOSS, PC_COUNT
};
_Static_assert(PC_COUNT == PROP_PALETTE_SIZE, "prop_palette's size in props_internal.h");
const uint8_t prop_palette[PROP_PALETTE_SIZE][3] = {
    [PC_TRUNK] = {92, 62, 38},     [PC_LEAF] = {58, 118, 40},    [PC_LEAF2] = {84, 140, 48},
    [PC_CONIFER] = {30, 84, 48},   [PC_SNOW] = {228, 234, 240},  [PC_PALM] = {92, 158, 56},
    [PC_JUNGLE] = {24, 108, 44},   [PC_BUSH] = {62, 122, 46},    [PC_ROCK] = {124, 122, 128},
    [PC_ROCK2] = {104, 96, 88},    [PC_FLOWER_R] = {214, 54, 60}, [PC_FLOWER_Y] = {236, 210, 60},
    [PC_CACTUS] = {74, 140, 70},   [PC_DEAD] = {120, 94, 60},    [PC_REED] = {150, 150, 80},
    [PC_STONE] = {140, 136, 126},  [PC_WOOD] = {132, 92, 52},    [PC_THATCH] = {190, 160, 90},
    [PC_WHITE] = {236, 232, 222},  [PC_RED] = {196, 44, 40},     [PC_DARK] = {50, 48, 52},
    [PC_LAMP] = {255, 232, 120},   [PC_FIRE] = {255, 132, 30},   [PC_MOSS] = {106, 128, 92},
};

/* ---------------------------------------------------------------- shapes */
enum {
    SH_CONIFER, SH_CONIFER_SNOW, SH_BROADLEAF, SH_BIRCH, SH_PALM, SH_JUNGLE, SH_BUSH, SH_ROCK, SH_BOULDER,
    SH_FLOWERS_R, SH_FLOWERS_Y, SH_CACTUS, SH_DEAD_BUSH, SH_REEDS, SH_OBJECT_COUNT
};

/* Objects. Box order matters: the first `far` boxes are the far shape. */
_Static_assert(SH_OBJECT_COUNT == PROP_OBJECT_SHAPES, "prop_objects's size in props_internal.h");
const PropShape prop_objects[PROP_OBJECT_SHAPES] = {
    [SH_CONIFER] = {"conifer", 1, 2, 3,
                    {{-1, 2, -1, 2, 6, 2, PC_CONIFER}, {0, 0, 0, 1, 2, 1, PC_TRUNK}, {0, 6, 0, 1, 9, 1, PC_CONIFER}}},
    [SH_CONIFER_SNOW] = {"snowy conifer", 1, 2, 4,
                         {{-1, 2, -1, 2, 5, 2, PC_CONIFER}, {0, 0, 0, 1, 2, 1, PC_TRUNK}, {-1, 5, -1, 2, 6, 2, PC_SNOW},
                          {0, 6, 0, 1, 9, 1, PC_SNOW}}},
    [SH_BROADLEAF] = {"broadleaf", 2, 2, 3,
                      {{-2, 3, -2, 3, 6, 3, PC_LEAF}, {0, 0, 0, 1, 3, 1, PC_TRUNK}, {-1, 6, -1, 2, 7, 2, PC_LEAF2}}},
    [SH_BIRCH] = {"birch", 1, 2, 3,
                  {{-1, 4, -1, 2, 7, 2, PC_LEAF2}, {0, 0, 0, 1, 4, 1, PC_WHITE}, {0, 7, 0, 1, 8, 1, PC_LEAF2}}},
    [SH_PALM] = {"palm", 2, 2, 5,
                 {{0, 0, 0, 1, 7, 1, PC_TRUNK}, {-2, 7, 0, 3, 8, 1, PC_PALM}, {0, 7, -2, 1, 8, 3, PC_PALM},
                  {-2, 6, -1, -1, 7, 0, PC_PALM}, {2, 6, 1, 3, 7, 2, PC_PALM}}},
    [SH_JUNGLE] = {"jungle tree", 2, 2, 4,
                   {{-2, 7, -2, 3, 9, 3, PC_JUNGLE}, {0, 0, 0, 1, 7, 1, PC_TRUNK}, {-1, 9, -1, 2, 10, 2, PC_LEAF},
                    {1, 4, 0, 3, 5, 1, PC_JUNGLE}}},
    [SH_BUSH] = {"bush", 1, 0, 2, {{0, 0, 0, 2, 1, 2, PC_BUSH}, {0, 1, 0, 1, 2, 1, PC_BUSH}}},
    [SH_ROCK] = {"rock", 1, 0, 2, {{0, 0, 0, 2, 1, 1, PC_ROCK}, {0, 0, 1, 1, 1, 2, PC_ROCK2}}},
    [SH_BOULDER] = {"boulder", 1, 1, 2, {{-1, 0, -1, 2, 2, 2, PC_ROCK}, {0, 2, -1, 2, 3, 1, PC_ROCK2}}},
    [SH_FLOWERS_R] = {"red flowers", 0, 0, 1, {{0, 0, 0, 1, 1, 1, PC_FLOWER_R}}},
    [SH_FLOWERS_Y] = {"yellow flowers", 0, 0, 1, {{0, 0, 0, 1, 1, 1, PC_FLOWER_Y}}},
    [SH_CACTUS] = {"cactus", 1, 1, 3,
                   {{0, 0, 0, 1, 4, 1, PC_CACTUS}, {-1, 1, 0, 0, 3, 1, PC_CACTUS}, {1, 2, 0, 2, 4, 1, PC_CACTUS}}},
    [SH_DEAD_BUSH] = {"dead bush", 1, 0, 3,
                      {{0, 0, 0, 1, 1, 1, PC_DEAD}, {-1, 1, 0, 0, 2, 1, PC_DEAD}, {1, 1, 0, 2, 2, 1, PC_DEAD}}},
    [SH_REEDS] = {"reeds", 0, 0, 1, {{0, 0, 0, 1, 2, 1, PC_REED}}},
};

/* Landmarks: one per home-island site, by its location type's `landmark` (assets/codex). All
 * within |x|, |z| <= PROP_LANDMARK_R; boxes that start at the ground are sunk PROP_SINK blocks
 * so a landmark never floats where coarse terrain sits lower. Every one reaches 9 m or more. */
const PropShape prop_landmarks[] = {
    {"hut", 3, 0, 7,
     {{-2, 0, -2, 3, 3, 3, PC_WOOD}, {-3, 3, -3, 4, 4, 4, PC_THATCH}, {-2, 4, -2, 3, 5, 3, PC_THATCH},
      {-1, 5, -1, 2, 6, 2, PC_THATCH}, {-3, 0, 3, -2, 10, 4, PC_TRUNK}, {-2, 8, 3, 1, 10, 4, PC_RED},
      {0, 0, 3, 1, 2, 4, PC_DARK}}},
    {"lighthouse", 2, 0, 7,
     {{-2, 0, -2, 3, 2, 3, PC_STONE}, {-1, 2, -1, 2, 5, 2, PC_WHITE}, {-1, 5, -1, 2, 8, 2, PC_RED},
      {-1, 8, -1, 2, 11, 2, PC_WHITE}, {-2, 11, -2, 3, 12, 3, PC_DARK}, {-1, 12, -1, 2, 14, 2, PC_LAMP},
      {0, 14, 0, 1, 15, 1, PC_RED}}},
    {"watchtower", 2, 0, 7,
     {{-2, 0, -2, -1, 8, -1, PC_WOOD}, {2, 0, -2, 3, 8, -1, PC_WOOD}, {-2, 0, 2, -1, 8, 3, PC_WOOD},
      {2, 0, 2, 3, 8, 3, PC_WOOD}, {-2, 8, -2, 3, 9, 3, PC_WOOD}, {0, 9, 0, 1, 11, 1, PC_TRUNK},
      {-2, 11, -2, 3, 12, 3, PC_THATCH}}},
    {"windmill", 4, 0, 5,
     {{-1, 0, -1, 2, 9, 2, PC_WHITE}, {-2, 9, -2, 3, 10, 3, PC_RED}, {-1, 10, -1, 2, 11, 2, PC_RED},
      {-4, 8, 2, 5, 9, 3, PC_WOOD}, {0, 4, 2, 1, 13, 3, PC_WOOD}}},
    {"totem", 2, 0, 5,
     {{0, 0, 0, 1, 10, 1, PC_WOOD}, {-1, 3, -1, 2, 5, 2, PC_RED}, {-1, 7, -1, 2, 8, 2, PC_FLOWER_Y},
      {-2, 8, 0, 3, 9, 1, PC_WOOD}, {-1, 0, -1, 2, 1, 2, PC_STONE}}},
    {"temple", 4, 0, 5,
     {{-4, 0, -4, 5, 2, 5, PC_MOSS}, {-3, 2, -3, 4, 4, 4, PC_MOSS}, {-2, 4, -2, 3, 6, 3, PC_STONE},
      {-1, 6, -1, 2, 9, 2, PC_STONE}, {0, 9, 0, 1, 10, 1, PC_FIRE}}},
    {"stilt_hut", 3, 0, 9,
     {{-2, 0, -2, -1, 3, -1, PC_TRUNK}, {2, 0, -2, 3, 3, -1, PC_TRUNK}, {-2, 0, 2, -1, 3, 3, PC_TRUNK},
      {2, 0, 2, 3, 3, 3, PC_TRUNK}, {-2, 3, -2, 3, 4, 3, PC_WOOD}, {-2, 4, -1, 3, 6, 2, PC_WOOD},
      {-3, 6, -3, 4, 7, 4, PC_THATCH}, {-2, 7, -2, 3, 8, 3, PC_THATCH}, {0, 8, 0, 1, 10, 1, PC_THATCH}}},
    {"standing_stones", 4, 0, 6,
     {{-4, 0, -1, -3, 6, 1, PC_STONE}, {4, 0, -1, 5, 6, 1, PC_STONE}, {-1, 0, -4, 1, 6, -3, PC_STONE},
      {-1, 0, 4, 1, 6, 5, PC_STONE}, {-4, 6, -1, 5, 7, 0, PC_ROCK}, {0, 0, 0, 1, 9, 1, PC_ROCK2}}},
    {"cairn", 3, 0, 5,
     {{-2, 0, -2, 3, 2, 3, PC_ROCK}, {-1, 2, -1, 2, 4, 2, PC_ROCK2}, {0, 4, 0, 1, 6, 1, PC_ROCK},
      {0, 6, 0, 1, 12, 1, PC_TRUNK}, {1, 10, 0, 4, 12, 1, PC_RED}}},
    {"beacon", 2, 0, 4,
     {{-1, 0, -1, 2, 7, 2, PC_STONE}, {-2, 7, -2, 3, 8, 3, PC_DARK}, {-1, 8, -1, 2, 10, 2, PC_FIRE},
      {0, 10, 0, 1, 11, 1, PC_LAMP}}},
    {"well", 3, 0, 6,
     {{-2, 0, -2, 3, 1, 3, PC_STONE}, {-2, 1, 0, -1, 5, 1, PC_WOOD}, {2, 1, 0, 3, 5, 1, PC_WOOD},
      {-3, 5, -1, 4, 6, 2, PC_THATCH}, {3, 0, 3, 4, 9, 4, PC_WOOD}, {1, 7, 3, 3, 9, 4, PC_WHITE}}},
    {"jetty", 4, 0, 6,
     {{-1, 0, -4, 2, 1, 5, PC_WOOD}, {-1, 1, 3, 2, 2, 4, PC_TRUNK}, {1, 1, 4, 2, 9, 5, PC_TRUNK},
      {1, 9, 4, 2, 10, 5, PC_LAMP}, {-3, 0, -4, -1, 4, -2, PC_WOOD}, {-3, 4, -4, -1, 5, -2, PC_THATCH}}},
};
const int prop_landmark_count = (int)(sizeof prop_landmarks / sizeof prop_landmarks[0]);

/* ---------------------------------------------------------------- flora sets */
enum { FL_NONE, FL_TEMPERATE, FL_SNOWY, FL_DESERT, FL_JUNGLE };   /* the first entries, in this order */
const FloraSet prop_flora[] = {
    {"none", 0, 0, {{0, 0}}},
    {"temperate", 60000, 6,
     {{SH_BROADLEAF, 34}, {SH_CONIFER, 18}, {SH_BIRCH, 12}, {SH_BUSH, 18}, {SH_FLOWERS_R, 8}, {SH_ROCK, 10}}},
    {"snowy", 46000, 3, {{SH_CONIFER_SNOW, 64}, {SH_BOULDER, 18}, {SH_DEAD_BUSH, 18}}},
    {"desert", 24000, 4, {{SH_CACTUS, 40}, {SH_DEAD_BUSH, 34}, {SH_ROCK, 14}, {SH_BOULDER, 12}}},
    {"jungle", 65536, 5, {{SH_JUNGLE, 46}, {SH_PALM, 10}, {SH_BUSH, 30}, {SH_FLOWERS_R, 8}, {SH_FLOWERS_Y, 6}}},
    {"beach", 24000, 3, {{SH_PALM, 70}, {SH_ROCK, 15}, {SH_BUSH, 15}}},
    {"rocky", 30000, 3, {{SH_BOULDER, 40}, {SH_ROCK, 40}, {SH_BUSH, 20}}},
    {"meadow", 56000, 5, {{SH_FLOWERS_R, 26}, {SH_FLOWERS_Y, 26}, {SH_BUSH, 24}, {SH_BROADLEAF, 14}, {SH_BIRCH, 10}}},
    {"forest", 65536, 4, {{SH_BROADLEAF, 44}, {SH_CONIFER, 30}, {SH_BIRCH, 14}, {SH_BUSH, 12}}},
    {"marsh", 52000, 3, {{SH_REEDS, 60}, {SH_BUSH, 24}, {SH_DEAD_BUSH, 16}}},
    {"highland", 30000, 4, {{SH_CONIFER, 34}, {SH_BOULDER, 26}, {SH_ROCK, 20}, {SH_BUSH, 20}}},
    {"scrub", 30000, 4, {{SH_DEAD_BUSH, 40}, {SH_CACTUS, 24}, {SH_ROCK, 20}, {SH_BUSH, 16}}},
};
const int prop_flora_count = (int)(sizeof prop_flora / sizeof prop_flora[0]);
/* The flora of each biome away from the home island (WorldBiome order). */
const uint8_t prop_biome_flora[BIOME_COUNT] = {
    [BIOME_TEMPERATE] = FL_TEMPERATE, [BIOME_SNOWY] = FL_SNOWY, [BIOME_DESERT] = FL_DESERT, [BIOME_JUNGLE] = FL_JUNGLE};

int world_landmark_find(const char *name) {
    for (int i = 0; name && i < prop_landmark_count; i++)
        if (!strcmp(prop_landmarks[i].name, name)) return i;
    return -1;
}
const char *world_landmark_name(int i) { return i >= 0 && i < prop_landmark_count ? prop_landmarks[i].name : NULL; }
int world_flora_find(const char *name) {
    for (int i = 0; name && i < prop_flora_count; i++)
        if (!strcmp(prop_flora[i].name, name)) return i;
    return -1;
}
const char *world_flora_name(int i) { return i >= 0 && i < prop_flora_count ? prop_flora[i].name : NULL; }

const char *gen_prop_shape_name(int shape, bool landmark) {
    if (landmark) return shape >= 0 && shape < prop_landmark_count ? prop_landmarks[shape].name : "?";
    return shape >= 0 && shape < SH_OBJECT_COUNT ? prop_objects[shape].name : "?";
}
