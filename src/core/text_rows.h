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
    X(BIND_AXIS, "move a stick, or press a key for +")                                             \
    X(BIND_BUTTON, "press a key or button")                                                        \
    X(BIND_HELP, "OK, then the key, button or stick for %s")                                       \
    X(HELP_RESTART, " (at the next start)")                                                        \
    X(HELP_REBUILDS, " (rebuilds the world)")                                                      \
    X(HELP_SIZED, "%d takes effect at the next start: this world was sized for %d")                \
    X(HELP_HELD, "the world reaches %d now: the mesh pool or the speed governor holds it in for a while")

#endif
