/* skyisles text rows: every string a player reads, once, as X(ID, "English"). The Japanese of
 * each row is in assets/text/ja.yaml under the same id; the build fails (file, line, id) when
 * that file misses a row or names one that is not here. Add a row here and its Japanese there.
 * Rows with printf conversions keep the same conversions, in the same order, in every language. */
#ifndef SKYISLES_CORE_TEXT_ROWS_H
#define SKYISLES_CORE_TEXT_ROWS_H

#define TEXT_ROWS(X)                                                                              \
    /* the title */                                                                               \
    X(TITLE_NAME, "SKYISLES")                                                                     \
    X(TITLE_TAGLINE, "floating islands flight")                                                   \
    X(TITLE_CONTINUE_PAD, "Start: continue where you left off   Y: new flight")                   \
    X(TITLE_CONTINUE_KEY, "Enter: continue where you left off   C: new flight")                   \
    X(TITLE_FLY_PAD, "Press Start to fly")                                                        \
    X(TITLE_FLY_KEY, "Press Enter to fly")                                                        \
    X(TITLE_QUIT_PAD, "Back+Start quits")                                                         \
    X(TITLE_QUIT_KEY, "Esc pauses, Back+Start quits")                                             \
    X(TITLE_POWER_PAD, "Select: power off, reboot, console")                                      \
    X(TITLE_POWER_KEY, "H: power off, reboot, console")                                           \
    X(TITLE_DEMO, "DEMO - press any button")                                                      \
    /* the flight HUD */                                                                          \
    X(HUD_SPEED, "SPD %4.0f m/s")                                                                 \
    X(HUD_ALTITUDE, "ALT %4.0f m")                                                                \
    X(HUD_HEADING, "HDG  %03.0f %s")                                                              \
    X(HUD_THROTTLE, "THR %3.0f%%")                                                                \
    X(HUD_BOOST, "BOOST")                                                                         \
    X(HUD_COLLISION_OFF, "COLLISION OFF")                                                         \
    X(HUD_FPS, "%.0f fps")                                                                        \
    X(HUD_PLACE_ISLAND, "%s, %s")                                                                 \
    X(HUD_N, "N")                                                                                 \
    X(HUD_NE, "NE")                                                                               \
    X(HUD_E, "E")                                                                                 \
    X(HUD_SE, "SE")                                                                               \
    X(HUD_S, "S")                                                                                 \
    X(HUD_SW, "SW")                                                                               \
    X(HUD_W, "W")                                                                                 \
    X(HUD_NW, "NW")                                                                               \
    X(HUD_CRASHED, "CRASHED")                                                                     \
    X(HUD_RESTARTING, "restarting in %.0f s")                                                     \
    /* the menus' frame */                                                                        \
    X(MENU_MORE, "more")                                                                          \
    X(MENU_HINT, "Up/Down move  Left/Right change  A/Enter select  B/Esc back")                   \
    X(MENU_HINT_SHORT, "A select  B back")                                                        \
    X(MENU_HINT_CAPTURE, "Esc cancels")                                                           \
    /* the island map */                                                                          \
    X(MAP_TITLE, "Island map")                                                                    \
    X(MAP_CLOSE, "X/M/B: close")                                                                  \
    X(MAP_OPEN_SKY, "over the open sky")                                                          \
    X(MAP_ISLAND_TITLE, "Island map: %s")                                                         \
    X(MAP_NEXT, "X/M: world map  B: close")                                                       \
    X(MAP_WORLD_TITLE, "World map: %u islands seen")                                              \
    /* the languages, each in its own words */                                                    \
    X(LANG_EN_NAME, "English")                                                                    \
    X(SET_LANGUAGE, "Language")                                                                   \
    X(SET_LANGUAGE_HELP, "the words of the menus, the HUD and the map (the first start follows LANG)") \
    X(LANG_JA_NAME, "日本語")                                                                         \
    /* the menus: pages, actions, values */                                                        \
    X(PAGE_PAUSE, "Paused")                                                                        \
    X(PAGE_PANEL, "World parameters")                                                              \
    X(PAGE_CONTROLS, "Controls")                                                                   \
    X(PAGE_BINDINGS, "Bindings")                                                                   \
    X(PAGE_DISPLAY, "Display")                                                                     \
    X(PAGE_SOUND, "Sound")                                                                         \
    X(PAGE_FLYTO, "Fly to")                                                                        \
    X(ACT_RESUME, "Resume")                                                                        \
    X(ACT_RESUME_HELP, "back to flying")                                                           \
    X(ACT_PANEL_HELP, "how the world is made, and the flight values")                              \
    X(ACT_MAP, "Island map")                                                                       \
    X(ACT_MAP_HELP, "the home island from above")                                                  \
    X(ACT_FLYTO_HELP, "coordinates anywhere in the sky, to the farthest reaches")                  \
    X(ACT_CONTROLS_HELP, "sticks, layout and bindings")                                            \
    X(ACT_DISPLAY_HELP, "the PSX look, quality and camera")                                        \
    X(ACT_SOUND_HELP, "volumes, output device, rumble")                                            \
    X(ACT_QUIT, "Quit")                                                                            \
    X(ACT_QUIT_HELP, "settings are kept")                                                          \
    X(ACT_RESET_WORLD, "Reset the world to defaults")                                              \
    X(ACT_RESET_WORLD_HELP, "the same seed, every other value its default")                        \
    X(ACT_BINDINGS_HELP, "which key, button or stick does what")                                   \
    X(ACT_RESET_CONTROLS, "Reset controls to defaults")                                            \
    X(ACT_RESET_CONTROLS_HELP, "sticks, layout and bindings as shipped")                           \
    X(ACT_RESET_BINDINGS, "Reset all bindings")                                                    \
    X(ACT_RESET_BINDINGS_HELP, "every action's default keys and buttons")                          \
    X(ACT_FLY_THERE, "Fly there")                                                                  \
    X(ACT_FLY_THERE_HELP, "the aircraft goes there, into open air found near it")                  \
    X(FLYTO_X, "X (east)")                                                                         \
    X(FLYTO_HEIGHT, "Height")                                                                      \
    X(FLYTO_Z, "Z (south)")                                                                        \
    X(FLYTO_STEP, "Step")                                                                          \
    X(FLYTO_STEP_HELP, "what Left/Right add: 1 m to 1e12 m")                                       \
    X(FLYTO_COORD_HELP, "Left/Right: step  OK: 0  keys: 0-9 -")                                    \
    X(VALUE_ON, "on")                                                                              \
    X(VALUE_OFF, "off")                                                                            \
    X(VALUE_FULL, "full")                                                                          \
    X(VALUE_NONE, "(none)")                                                                        \
    X(VALUE_NOW, "%.0f%s%s (%d now)")                                                              \
    X(VALUE_HELD_NOW, " (%s now)")                                                                \
    X(BIND_AXIS, "move a stick, or press a key for +")                                             \
    X(BIND_BUTTON, "press a key or button")                                                        \
    X(BIND_HELP, "OK, then the key, button or stick for %s")                                       \
    X(HELP_RESTART, " (at the next start)")                                                        \
    X(HELP_REBUILDS, " (rebuilds the world)")                                                      \
    X(HELP_SIZED, "%d takes effect at the next start: this world was sized for %d")                \
    X(HELP_HELD, "the world reaches %d now: Quality auto, the mesh pool or the speed governor holds it in") \
    X(HELP_AUTO_HOLDS, "Quality auto draws %s for now: frames ran late (yours returns with room)") \
    /* the settings rows (setting_table.c) */                                                      \
    X(SET_INVERT_PITCH, "Invert pitch")                                                            \
    X(SET_INVERT_PITCH_HELP, "stick forward raises the nose")                                      \
    X(SET_LAYOUT, "Button layout")                                                                 \
    X(SET_LAYOUT_HELP, "xbox: confirm with the bottom button; nintendo: with the right one")       \
    X(SET_DEAD_ZONE, "Stick dead zone")                                                            \
    X(SET_DEAD_ZONE_HELP, "how far a stick moves before it counts (0: at once)")                   \
    X(SET_CURVE, "Stick response curve")                                                           \
    X(SET_CURVE_HELP, "1: linear; higher: finer control near the centre")                          \
    X(SET_RAMP, "D-pad flight ramp")                                                               \
    X(SET_RAMP_HELP, "seconds a held d-pad or shoulder button takes to full pitch, roll or yaw (0: at once)") \
    X(SET_BINDINGS_HELP, "key NAME, pad BUTTON, axis AXIS; +/- the direction")                     \
    X(SET_QUALITY, "Quality")                                                                      \
    X(SET_QUALITY_HELP, "auto: lowered while frames run late; or a fixed preset of view radius, LOD bands, lines, clouds") \
    X(SET_HUD, "HUD")                                                                              \
    X(SET_HUD_HELP, "flight data over the picture (Back/Select toggles it)")                       \
    X(SET_CAMERA, "Camera")                                                                        \
    X(SET_CAMERA_HELP, "behind the aircraft or in it (Y / C switches)")                            \
    X(SET_FRAME_CAP, "Frame cap")                                                                  \
    X(SET_FRAME_CAP_HELP, "30 or 60 frames a second at most (battery on handhelds), or uncapped")  \
    X(SET_VSYNC, "Vsync")                                                                          \
    X(SET_VSYNC_HELP, "wait for the display's refresh (no tearing; --no-vsync turns it off for a run)") \
    X(SET_FULLSCREEN, "Fullscreen")                                                                \
    X(SET_FULLSCREEN_HELP, "on a desktop: fill the screen or a window (F11, Alt+Enter); a console is always fullscreen") \
    X(SET_SHOW_POSITION, "Show position")                                                          \
    X(SET_SHOW_POSITION_HELP, "the HUD shows X, height and Z in metres (bottom left; km past 10 km)") \
    X(SET_SHOT_HUD, "HUD in screenshots")                                                          \
    X(SET_SHOT_HUD_HELP, "F12 or L1+R1 saves a PNG in screenshots/; off: the picture without the HUD") \
    X(SET_SPEED_LIMIT, "Speed limit")                                                              \
    X(SET_SPEED_LIMIT_HELP, "the boost's top speed (one block = one metre)")                       \
    X(SET_COLLISION, "Collision")                                                                  \
    X(SET_COLLISION_HELP, "off: fly through rock")                                                 \
    X(SET_MASTER, "Master volume")                                                                 \
    X(SET_MASTER_HELP, "everything the game plays")                                                \
    X(SET_ENGINE, "Engine")                                                                        \
    X(SET_ENGINE_HELP, "the engine's drone and the boost's roar")                                  \
    X(SET_WIND, "Wind and ambience")                                                               \
    X(SET_WIND_HELP, "wind, buffeting, the abyss and the title's ambience")                        \
    X(SET_EFFECTS, "Effects")                                                                      \
    X(SET_EFFECTS_HELP, "sonic booms, crashes, menu and controller sounds")                        \
    X(SET_MUTE, "Mute")                                                                            \
    X(SET_MUTE_HELP, "silence (the device stays open)")                                            \
    X(SET_DEVICE, "Output device")                                                                 \
    X(SET_DEVICE_HELP, "default, or one of SDL's outputs (a Pi: HDMI or the headphone jack)")      \
    X(SET_RUMBLE, "Rumble")                                                                        \
    X(SET_RUMBLE_HELP, "the pad shakes on a crash, the boost, a sonic boom and close rock")        \
    X(SET_RUMBLE_STRENGTH, "Rumble strength")                                                      \
    X(SET_RUMBLE_STRENGTH_HELP, "how hard the pad shakes")                                         \
    X(SET_LAYOUT_XBOX, "Xbox (A confirms)")                                                        \
    X(SET_LAYOUT_NINTENDO, "Nintendo (right confirms)")                                            \
    X(SET_FPS_30, "30 fps")                                                                        \
    X(SET_FPS_60, "60 fps")                                                                        \
    X(SET_UNCAPPED, "uncapped")                                                                    \
    X(SET_Q_LOW, "low")                                                                            \
    X(SET_Q_MEDIUM, "medium")                                                                      \
    X(SET_Q_HIGH, "high")                                                                          \
    X(SET_Q_AUTO, "auto")                                                                         \
    X(SET_CAM_CHASE, "chase")                                                                      \
    X(SET_CAM_COCKPIT, "cockpit")                                                                  \
    /* the renderer's look rows (render.h) */                                                      \
    X(SET_LINES, "PSX lines")                                                                      \
    X(SET_LINES_HELP, "PSX target lines: 240, 360, 480; 0 = full resolution")                      \
    X(SET_4_3, "4:3 picture")                                                                      \
    X(SET_4_3_HELP, "4:3 PSX target, pillarboxed on wide screens")                                 \
    X(SET_SNAP, "Vertex snap")                                                                     \
    X(SET_SNAP_HELP, "vertices snap to the PSX pixel grid (the wobble)")                           \
    X(SET_COLOR15, "15-bit colour")                                                                \
    X(SET_COLOR15_HELP, "colours cut to 5 bits per channel")                                       \
    X(SET_DITHER, "Dither")                                                                        \
    X(SET_DITHER_HELP, "ordered dither over the 15-bit colours")                                   \
    X(SET_FOG, "Fog")                                                                              \
    X(SET_FOG_HELP, "distance fog toward the sky colour")                                          \
    X(SET_SKY_CLOUDS, "Sky clouds")                                                                \
    X(SET_SKY_CLOUDS_HELP, "the cloud layer painted on the sky dome")                              \
    X(SET_VOXEL_CLOUDS, "Voxel clouds")                                                            \
    X(SET_VOXEL_CLOUDS_HELP, "blended voxel clouds in the world (costly on tile GPUs)")            \
    X(SET_FOV, "Field of view")                                                                    \
    X(SET_FOV_HELP, "vertical field of view")                                                      \
    X(SET_HUD_SIZE, "HUD size")                                                                    \
    X(SET_HUD_SIZE_HELP, "text size: small for a 3.5-inch screen, large for a TV across the room") \
    X(SET_SIZE_SMALL, "small")                                                                     \
    X(SET_SIZE_NORMAL, "normal")                                                                   \
    X(SET_SIZE_LARGE, "large")                                                                     \
    X(UNIT_DEG, "deg")                                                                             \
    X(HUD_WIND, "WIND %03.0f %s %2.0f m/s")                                                       \
    X(HUD_WIND_SHORT, "WIND %03.0f %2.0f")                                                        \
    X(SET_WEATHER, "Weather")                                                                     \
    X(SET_WEATHER_HELP, "changing over time and place, or one kind everywhere (its wind carries the aircraft)") \
    X(SET_WX_CHANGING, "changing")                                                                \
    X(SET_WX_CLEAR, "clear")                                                                      \
    X(SET_WX_CLOUDY, "cloudy")                                                                    \
    X(SET_WX_OVERCAST, "overcast")                                                                \
    X(SET_WX_RAIN, "rain")                                                                        \
    X(SET_WX_STORM, "storm")                                                                      \
    X(SET_WX_FOG, "fog")                                                                          \
    X(SET_TIME, "Time of day")                                                                    \
    X(SET_TIME_RUNNING, "running")                                                                \
    X(SET_TIME_FIXED, "fixed")                                                                    \
    X(SET_TIME_HELP, "running: the sun crosses the sky from the hour on; fixed: held at the hour") \
    X(SET_HOUR, "Hour")                                                                           \
    X(SET_HOUR_HELP, "the hour a flight starts at (time running) or stays at (time fixed); --time-of-day HH[:MM] holds it") \
    X(SET_DAY_LENGTH, "Day length")                                                               \
    X(SET_DAY_LENGTH_HELP, "minutes of flight for a whole day and night while the time runs")     \
    X(UNIT_H, "h")                                                                                \
    X(UNIT_MIN, "min")                                                                            \
    /* the world parameter panel (world params.c, caves.c) */                                      \
    X(WP_SEED, "World seed")                                                                       \
    X(WP_SEED_HELP, "world seed")                                                                  \
    X(WP_BASE_SCALE, "Abyss hill size")                                                            \
    X(WP_BASE_SCALE_HELP, "abyss hills: 2D FBM frequency (1/blocks)")                              \
    X(WP_BASE_AMP, "Abyss hill height")                                                            \
    X(WP_BASE_AMP_HELP, "abyss hills: height of the 2D FBM (blocks)")                              \
    X(WP_BASE_OFFSET, "Abyss floor height")                                                        \
    X(WP_BASE_OFFSET_HELP, "abyss hills: mean base height (blocks)")                               \
    X(WP_BASE_OCT, "Abyss hill detail")                                                            \
    X(WP_BASE_OCT_HELP, "abyss hills: FBM octaves")                                                \
    X(WP_N3_SCALE, "Overhang size")                                                                \
    X(WP_N3_SCALE_HELP, "3D noise frequency (1/blocks)")                                           \
    X(WP_N3_AMP, "Overhang strength")                                                              \
    X(WP_N3_AMP_HELP, "3D noise strength: overhangs and shreds (blocks)")                          \
    X(WP_N3_OCT, "Overhang detail")                                                                \
    X(WP_N3_OCT_HELP, "3D noise FBM octaves")                                                      \
    X(WP_N3_SQUASH, "Overhang flatness")                                                           \
    X(WP_N3_SQUASH_HELP, "3D noise y frequency factor (< 1: taller features)")                     \
    X(WP_BEDROCK, "Bedrock height")                                                                \
    X(WP_BEDROCK_HELP, "bedrock below this height (blocks)")                                       \
    X(WP_BEDROCK_STR, "Bedrock hardness")                                                          \
    X(WP_BEDROCK_STR_HELP, "bedrock density per block squared below it")                           \
    X(WP_ISL_SCALE, "Island spacing")                                                              \
    X(WP_ISL_SCALE_HELP, "islands: coverage noise frequency (1/blocks)")                           \
    X(WP_ISL_THRESH, "Island rarity")                                                              \
    X(WP_ISL_THRESH_HELP, "islands: coverage above this is island (lower: more)")                  \
    X(WP_ISL_HEIGHT, "Island height")                                                              \
    X(WP_ISL_HEIGHT_HELP, "islands: lens centre height (blocks)")                                  \
    X(WP_ISL_VAR, "Island height spread")                                                          \
    X(WP_ISL_VAR_HELP, "islands: +- variation of the centre (blocks)")                             \
    X(WP_ISL_TOP, "Island dome height")                                                            \
    X(WP_ISL_TOP_HELP, "islands: dome height at full coverage (blocks)")                           \
    X(WP_ISL_BOTTOM, "Island underside depth")                                                     \
    X(WP_ISL_BOTTOM_HELP, "islands: underside depth at full coverage (blocks)")                    \
    X(WP_ISL_NOISE, "Island roughness")                                                            \
    X(WP_ISL_NOISE_HELP, "islands: 3D noise roughness (blocks)")                                   \
    X(WP_ISL_TAPER, "Island underside slope")                                                      \
    X(WP_ISL_TAPER_HELP, "islands: underside slope (< 1: rough hanging undersides)")               \
    X(WP_SNOW, "Snow line")                                                                        \
    X(WP_SNOW_HELP, "surfaces above this height are snow")                                         \
    X(WP_CAVE_MODES, "Cave kinds")                                                                 \
    X(WP_CAVE_MODES_HELP, "cave kinds, a sum of 1 cheese, 2 worms, 4 tubes, 8 rough worms")        \
    X(WP_CAVE_MIN, "Caves above")                                                                  \
    X(WP_CAVE_MIN_HELP, "caves carve above this height only (keeps the floor)")                    \
    X(WP_CLOUDS, "Clouds")                                                                         \
    X(WP_CLOUDS_HELP, "W7 clouds on/off")                                                          \
    X(WP_CLOUD_CENTRE, "Cloud height")                                                             \
    X(WP_CLOUD_CENTRE_HELP, "cloud band centre height (blocks)")                                   \
    X(WP_CLOUD_RANGE, "Cloud thickness")                                                           \
    X(WP_CLOUD_RANGE_HELP, "cloud band half height (blocks)")                                      \
    X(WP_CLOUD_SCALE, "Cloud size")                                                                \
    X(WP_CLOUD_SCALE_HELP, "cloud noise frequency (1/blocks)")                                     \
    X(WP_CLOUD_OCT, "Cloud detail")                                                                \
    X(WP_CLOUD_OCT_HELP, "cloud noise FBM octaves")                                                \
    X(WP_CLOUD_THRESH, "Cloud rarity")                                                             \
    X(WP_CLOUD_THRESH_HELP, "cloud where noise * band weight exceeds this")                        \
    X(WP_WIND, "Wind speed")                                                                       \
    X(WP_WIND_HELP, "cloud wind: blocks of shift per second of chunk creation time")               \
    X(WP_CLOUD_ALPHA, "Cloud opacity")                                                             \
    X(WP_CLOUD_ALPHA_HELP, "cloud opacity")                                                        \
    X(WP_JITTER_SCALE, "Colour speckle size")                                                      \
    X(WP_JITTER_SCALE_HELP, "colour jitter noise frequency (1/blocks)")                            \
    X(WP_JITTER, "Colour speckle")                                                                 \
    X(WP_JITTER_HELP, "colour jitter amplitude")                                                   \
    X(WP_BIOME_SCALE, "Biome size")                                                                \
    X(WP_BIOME_SCALE_HELP, "biomes: temperature/humidity frequency (1/blocks)")                    \
    X(WP_BIOME_BLEND, "Biome border width")                                                        \
    X(WP_BIOME_BLEND_HELP, "biomes: width of a border (field units; wider: softer)")               \
    X(WP_AO, "Corner shading")                                                                     \
    X(WP_AO_HELP, "per-vertex AO darkening per occluder")                                          \
    X(WP_SHADE_FLOOR, "Abyss brightness")                                                          \
    X(WP_SHADE_FLOOR_HELP, "pseudo-AO brightness at the abyss floor")                              \
    X(ISLAND_HOME_NAME, "Home Island")                                                             \
    X(WP_SEA, "Home island sea level")                                                             \
    X(WP_SEA_HELP, "home island: height of its sea level (blocks; 1 m of elevation = 1 block above it)") \
    X(WP_PROPS, "Trees and rocks")                                                                 \
    X(WP_PROPS_HELP, "objects: trees, bushes, rocks (x acceptance; 0: none)")                      \
    X(WP_YMAX, "World top")                                                                        \
    X(WP_YMAX_HELP, "generated top (blocks, rounded up to 8)")                                     \
    X(WP_VIEW, "View distance")                                                                    \
    X(WP_VIEW_HELP, "chunks streamed around the camera (at most view_radius_max)")                 \
    X(WP_RESULTS, "Chunks taken per frame")                                                        \
    X(WP_RESULTS_HELP, "finished chunks collected per frame")                                      \
    X(WP_AHEAD, "Look-ahead priority")                                                             \
    X(WP_AHEAD_HELP, "priority bonus straight ahead (chunks)")                                     \
    X(WP_FRUSTUM, "Off-screen penalty")                                                            \
    X(WP_FRUSTUM_HELP, "priority penalty outside the view cone (chunks)")                          \
    X(WP_LOOKAHEAD, "Prefetch ahead")                                                              \
    X(WP_LOOKAHEAD_HELP, "prefetch ahead of the aircraft (seconds of flight, <= 3 chunks)")        \
    X(WP_LOD1, "Detail level 1 from")                                                              \
    X(WP_LOD1_HELP, "LOD 1 from this many chunks (0: LOD off)")                                    \
    X(WP_LOD2, "Detail level 2 from")                                                              \
    X(WP_LOD2_HELP, "LOD 2 from this many chunks (0: none)")                                       \
    X(WP_LOD3, "Detail level 3 from")                                                              \
    X(WP_LOD3_HELP, "LOD 3 from this many chunks (0: none)")                                       \
    X(WP_LOD_HYST, "Detail change slack")                                                          \
    X(WP_LOD_HYST_HELP, "LOD anchor slack past a chunk border (chunks)")                           \
    X(WP_LOD_REFINE, "Finer detail penalty")                                                       \
    X(WP_LOD_REFINE_HELP, "priority penalty of a LOD change toward finer (chunks)")                \
    X(WP_LOD_COARSEN, "Coarser detail penalty")                                                    \
    X(WP_LOD_COARSEN_HELP, "priority penalty of a LOD change toward coarser (chunks)")             \
    X(WP_REACH_MIN, "Least view at speed")                                                         \
    X(WP_REACH_MIN_HELP, "reach the speed governor may pull in to when generation falls behind (chunks)") \
    X(WP_RADIUS_MAX, "World sized for")                                                            \
    X(WP_RADIUS_MAX_HELP, "view radius the world is sized for (0: view_radius)")                   \
    X(WP_IN_FLIGHT, "Chunk jobs in flight")                                                        \
    X(WP_IN_FLIGHT_HELP, "chunk jobs in flight (0: 48 per worker + 16)")                           \
    X(WP_MESH_POOL, "Mesh pool")                                                                   \
    X(WP_MESH_POOL_HELP, "CPU mesh pool in MiB (0: sized by the view radius)")                     \
    X(WP_WORKERS, "Worker threads")                                                                \
    X(WP_WORKERS_HELP, "chunk worker threads (0: one per online core)")                            \
    X(CV_CHEESE_SCALE, "Cheese cave size")                                                         \
    X(CV_CHEESE_SCALE_HELP, "cheese caves (C1): noise frequency (1/blocks)")                       \
    X(CV_CHEESE_THRESH, "Cheese cave rarity")                                                      \
    X(CV_CHEESE_THRESH_HELP, "cheese caves: air where the noise exceeds this")                     \
    X(CV_WORM_SCALE, "Worm cave size")                                                             \
    X(CV_WORM_SCALE_HELP, "worm caves (C2): noise frequency (1/blocks)")                           \
    X(CV_WORM_THRESH, "Worm cave rarity")                                                          \
    X(CV_WORM_THRESH_HELP, "worm caves: air where 1 - |noise| exceeds this")                       \
    X(CV_TUBE_SCALE, "Tunnel spacing")                                                             \
    X(CV_TUBE_SCALE_HELP, "tube caves: noise frequency (1/blocks)")                                \
    X(CV_TUBE_RADIUS, "Tunnel width")                                                              \
    X(CV_TUBE_RADIUS_HELP, "tube caves: radius in noise units")                                    \
    X(CV_TUBE_SQUASH, "Tunnel flatness")                                                           \
    X(CV_TUBE_SQUASH_HELP, "tube caves: y frequency factor (> 1: flatter)")                        \
    X(CV_ROUGH_SCALE, "Rough cave size")                                                           \
    X(CV_ROUGH_SCALE_HELP, "rough worm caves (C2 + FBM): noise frequency (1/blocks)")              \
    X(CV_ROUGH_THRESH, "Rough cave rarity")                                                        \
    X(CV_ROUGH_THRESH_HELP, "rough worm caves: air where 1 - |FBM| exceeds this")                  \
    X(CV_ROUGH_OCT, "Rough cave detail")                                                           \
    X(CV_ROUGH_OCT_HELP, "rough worm caves: FBM octaves (more: rougher walls)")                    \
    X(UNIT_BLOCKS, "blocks")                                                                       \
    X(UNIT_PER_BLOCK, "1/blocks")                                                                  \
    X(UNIT_OCTAVES, "octaves")                                                                     \
    X(UNIT_CHUNKS, "chunks")                                                                       \
    X(UNIT_BLOCKS_S, "blocks/s")                                                                   \
    X(UNIT_OF_255, "of 255")                                                                       \
    X(UNIT_SUM, "sum")                                                                             \
    X(UNIT_TIMES, "x")                                                                             \
    X(UNIT_S, "s")                                                                                 \
    /* the actions (bindings page) */                                                              \
    X(ACTION_PITCH, "Pitch")                                                                       \
    X(ACTION_ROLL, "Roll")                                                                         \
    X(ACTION_YAW, "Yaw")                                                                           \
    X(ACTION_THROTTLE_UP, "Throttle up")                                                           \
    X(ACTION_THROTTLE_DOWN, "Throttle down")                                                       \
    X(ACTION_BOOST, "Boost")                                                                       \
    X(ACTION_CAMERA, "Camera")                                                                     \
    X(ACTION_MAP, "Island map")                                                                    \
    X(ACTION_PAUSE, "Pause")                                                                       \
    X(ACTION_SELECT, "HUD on/off")                                                                 \
    X(ACTION_SCREENSHOT, "Screenshot")                                                             \
    X(ACTION_MENU_UP, "Menu up")                                                                   \
    X(ACTION_MENU_DOWN, "Menu down")                                                               \
    X(ACTION_MENU_LEFT, "Menu left")                                                               \
    X(ACTION_MENU_RIGHT, "Menu right")                                                             \
    X(ACTION_MENU_OK, "Menu OK")                                                                   \
    X(ACTION_MENU_BACK, "Menu back")                                                               \
    /* the modes and courses */                                                                    \
    X(MODE_FREE, "Free flight")                                                                    \
    X(MODE_FREE_HELP, "fly anywhere, no rings, no clock")                                          \
    X(MODE_TOUR, "Island tour")                                                                    \
    X(MODE_TOUR_HELP, "a ring over every place of the home island, against the clock")             \
    X(MODE_SKY, "Sky course")                                                                      \
    X(MODE_SKY_HELP, "rings through the floating islands of this seed, against the clock")         \
    X(COURSE_COMPLETE, "%s complete")                                                              \
    X(COURSE_TOTAL, "Total %s")                                                                    \
    X(COURSE_BEST, "Best %s%s")                                                                   \
    X(COURSE_CRASHES, "Crashes %u")                                                               \
    X(MORE_N, "+%d more")                                                                         \
    X(COURSE_NEW_BEST, "  NEW BEST")                                                               \
    X(COURSE_RESULTS_HINT, "A/Enter: free flight   Start: menu")                                   \
    X(COURSE_GO, "%u rings: go!")                                                                  \
    X(COURSE_LAYING, "Laying the course ...")                                                      \
    X(TOUCH_WHY_DROP, "a wheel over a drop")                                                      \
    X(TOUCH_WHY_OBJECT, "a wheel into an object")                                                 \
    X(TOUCH_WHY_STEEP, "ground too steep")                                                        \
    X(TOUCH_WHY_FAST, "touched down too fast")                                                    \
    X(TOUCH_WHY_HARD, "touched down too hard")                                                    \
    X(TOUCH_WHY_WING, "a wing first")                                                             \
    X(TOUCH_WHY_NOSE, "the nose first")                                                           \
    X(TOUCH_WHY_TAIL, "the tail first")                                                           \
    X(TOUCH_WHY_ROLLED, "rolled into something")                                                  \
    X(TOUCH_WHY_FLEW, "flew into something")                                                      \
    X(TOUCH_WHY_SPLASH, "splashed down in water")                                                 \
    X(TOUCH_WHY_WATER_FAST, "hit the water too fast")                                             \
    X(TOUCH_SMOOTH, "smooth")                                                                     \
    X(TOUCH_FIRM, "firm")                                                                         \
    X(TOUCH_HARD, "hard")                                                                         \
    X(HUD_STRIP, "STRIP %.0f m")                                                                  \
    X(HUD_STALL, "STALL")                                                                         \
    X(HUD_TOUCHDOWN, "TOUCHDOWN %s  %.1f m/s")                                                    \
    X(HUD_GEAR, "GEAR DOWN  %s")                                                                  \
    X(HUD_BRAKES, "BRAKES")                                                                       \
    X(HUD_PARKED, "PARKED")                                                                       \
    X(HUD_ROLLING, "ROLLING")                                                                     \
    X(HUD_AGL_VS, "AGL %3.0f m  VS %+4.1f")                                                       \
    X(ACTION_BRAKE, "Brakes")                                                                     \
    X(SET_START, "New flights start")                                                             \
    X(SET_START_AIR, "in the air")                                                                \
    X(SET_START_GROUND, "parked at the base")                                                     \
    X(SET_START_HELP, "air: flying toward the home island; ground: parked on the strip by the base camp") \
    X(JOB_TAKEN, "Taken: %s to %s")                                                               \
    X(JOB_CARRYING, "Carrying %s to %s")                                                          \
    X(JOB_NOTHING, "Nothing to carry from here")                                                  \
    X(JOB_LAND_FIRST, "Land and stop at a place")                                                 \
    X(JOB_OFFER_HELP, "on foot %s, %.1f km flying: OK takes it")                                  \
    X(JOB_OFFER, "%s to %s")                                                                      \
    X(LOG_ROUTE_HELP, "from %s: %u deliveries")                                                   \
    X(LOG_ROUTE, "To %s: best %s")                                                                \
    X(LOG_NOT_KEPT, "Not kept in this run")                                                       \
    X(LOG_FLIGHTS, "Flights %u")                                                                  \
    X(LOG_HOURS, "Hours %.1f")                                                                    \
    X(LOG_DISTANCE, "Distance %.1f km")                                                           \
    X(LOG_TOP_SPEED, "Top speed %.0f m/s")                                                        \
    X(LOG_BOOMS, "Sonic booms %u")                                                                \
    X(LOG_LANDINGS, "Landings %u")                                                                \
    X(LOG_BEST_LANDING, "Best landing %.2f m/s")                                                  \
    X(LOG_BEST_NONE, "Best landing: none yet")                                                    \
    X(LOG_PLACES, "Places landed at %u of %u")                                                    \
    X(LOG_LANDMARKS, "Landmarks passed %u")                                                       \
    X(LOG_ISLANDS, "Islands discovered %u, landed on %u")                                         \
    X(LOG_DELIVERIES, "Deliveries %u")                                                            \
    X(PAGE_JOBS, "Job board")                                                                     \
    X(PAGE_LOGBOOK, "Logbook")                                                                    \
    X(PAGE_JOBS_HELP, "the jobs of the place you stand at: cargo to carry")                       \
    X(PAGE_LOGBOOK_HELP, "your flights, landings and deliveries on this island")                  \
    X(JOB_NO_PATH, "no path on foot")                                                             \
    X(JOB_H_MIN, "%u h %u min")                                                                   \
    X(JOB_H, "%u h")                                                                              \
    X(JOB_MIN, "%u min")                                                                          \
    X(JOB_OFFER_LABEL, "%s to %s: on foot %s")                                                    \
    X(JOB_DELIVERED, "delivered in %s; on foot %s")                                               \
    X(JOB_DELIVERED_AWAY, "delivered in %s")                                                      \
    X(JOB_OFFER_HELP_AWAY, "%.1f km flying: OK takes it")                                         \
    X(JOB_HUD_LONG, "%s to %s  %.1f km")                                                          \
    X(JOB_BOARD_HERE, "Job board here: pause menu > Job board")                                   \
    X(JOB_BOARD_SHORT, "Job board: pause menu")                                                   \
    X(RING_OPEN, "Open")                                                                           \
    X(RING_OVERHANG, "Overhang")                                                                   \
    X(RING_GAP, "Gap")                                                                             \
    X(RING_CLOUD, "Cloud")                                                                         \
    X(RING_TUNNEL, "Tunnel")                                                                       \
    /* messages, the battery, the power menu */                                                    \
    X(MSG_SPOT_ROCK, "The saved spot is rock now: continuing in open air nearby")                  \
    X(MSG_CONTINUING, "Continuing where you left off")                                             \
    X(MSG_FULLSCREEN, "Fullscreen (F11: a window)")                                                \
    X(MSG_WINDOW, "A window (F11: fullscreen)")                                                    \
    X(MSG_REPLAY_NO_FLYTO, "A replay flies: no Fly to while it plays")                             \
    X(MSG_NO_AIR, "No open air near there: staying here")                                          \
    X(MSG_WHERE, "X %s, Z %s, %.0f m up")                                                          \
    X(MSG_CONTROLLER, "Controller: %s")                                                            \
    X(MSG_RESUMED, "Resumed")                                                                      \
    X(MSG_PAD_FLIES, "%s flies now")                                                               \
    X(MSG_PAD_GONE, "%s disconnected")                                                             \
    X(MSG_PAD_NO_MAPPING, "%s has no mapping: see the README")                                     \
    X(MSG_PAUSED_BREAK, "Paused after a %.0f s break")                                             \
    X(MSG_FLY, "Fly! Start or Esc pauses")                                                         \
    X(MSG_SHOTS_OFF, "Screenshots are off in this run")                                            \
    X(MSG_SHOT_NO_DIR, "Screenshot not saved: no config folder (--config DIR)")                    \
    X(MSG_SHOT_RO, "Screenshot not saved: the config folder is read-only")                         \
    X(MSG_SHOT_GREW, "Screenshot not saved: the screen grew past %dx%d since the start")           \
    X(MSG_SHOT_WHY, "Screenshot not saved: %s")                                                    \
    X(MSG_SHOT_SAVED, "Screenshot saved: screenshots/%s")                                          \
    X(BAT_LOW_BRIEF, "LOW %d%%")                                                                   \
    X(BAT_LOW, "BATTERY LOW %d%%")                                                                 \
    X(BAT, "BAT %d%%")                                                                             \
    X(ACT_POWER_OFF, "Power off")                                                                  \
    X(ACT_POWER_OFF_HELP, "settings are kept, then the machine shuts down")                        \
    X(ACT_REBOOT, "Reboot")                                                                        \
    X(ACT_REBOOT_HELP, "settings are kept, then the machine restarts")                             \
    /* the title's language choice, the pad notice */                                              \
    X(TITLE_LANG_PAD, "X: language")                                                               \
    X(TITLE_LANG_KEY, "M: language")                                                               \
    X(PAD_NOTICE, "Controller disconnected: plug it back in")                                      \
    X(COURSE_RESULTS_HINT_SHORT, "A: fly  Start: menu")

#endif
