/* skyisles names of keys and pad controls: the words settings files and menus use ("W", "Esc",
 * "a", "start", "leftx"). Pad names are SDL GameController's own, as mapping files spell them.
 * Pure: the game's input code and its tests use these without SDL. */
#include <strings.h>

#include "platform.h"

static const struct { PlatformKey key; const char *name; } k_names[] = {
    {PKEY_ESCAPE, "Esc"},       {PKEY_SPACE, "Space"},     {PKEY_ENTER, "Enter"},   {PKEY_TAB, "Tab"},
    {PKEY_BACKSPACE, "Backspace"}, {PKEY_UP, "Up"},        {PKEY_DOWN, "Down"},     {PKEY_LEFT, "Left"},
    {PKEY_RIGHT, "Right"},      {PKEY_LSHIFT, "LShift"},   {PKEY_RSHIFT, "RShift"}, {PKEY_LCTRL, "LCtrl"},
    {PKEY_RCTRL, "RCtrl"},      {PKEY_PAGEUP, "PageUp"},   {PKEY_PAGEDOWN, "PageDown"}, {PKEY_MINUS, "Minus"},
    {PKEY_EQUALS, "Equals"},    {PKEY_COMMA, "Comma"},     {PKEY_PERIOD, "Period"}, {PKEY_F1, "F1"},
    {PKEY_F2, "F2"},            {PKEY_F3, "F3"},           {PKEY_F4, "F4"},         {PKEY_F5, "F5"},
    {PKEY_F6, "F6"},            {PKEY_F7, "F7"},           {PKEY_F8, "F8"},         {PKEY_F9, "F9"},
    {PKEY_F10, "F10"},          {PKEY_F11, "F11"},         {PKEY_F12, "F12"},       {PKEY_LALT, "LAlt"},
    {PKEY_RALT, "RAlt"},
};

const char *platform_key_name(PlatformKey k) {
    static const char *const letters[26] = {"A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
                                            "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"};
    static const char *const digits[10] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"};
    if (k >= PKEY_A && k <= PKEY_Z) return letters[k - PKEY_A];
    if (k >= PKEY_0 && k <= PKEY_9) return digits[k - PKEY_0];
    for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++)
        if (k_names[i].key == k) return k_names[i].name;
    return "";
}

PlatformKey platform_key_from_name(const char *name) {
    if (!name || !name[0]) return PKEY_NONE;
    for (int k = PKEY_NONE + 1; k < PKEY_COUNT; k++)
        if (!strcasecmp(platform_key_name((PlatformKey)k), name)) return (PlatformKey)k;
    return PKEY_NONE;
}

static const char *const k_buttons[PPAD_BUTTON_COUNT] = {
    "a", "b", "x", "y", "back", "guide", "start", "leftstick", "rightstick", "leftshoulder", "rightshoulder",
    "dpup", "dpdown", "dpleft", "dpright"};
static const char *const k_axes[PPAD_AXIS_COUNT] = {"leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger"};

const char *platform_pad_button_name(PlatformPadButton b) { return b < PPAD_BUTTON_COUNT ? k_buttons[b] : ""; }

PlatformPadButton platform_pad_button_from_name(const char *name) {
    for (int b = 0; name && b < PPAD_BUTTON_COUNT; b++)
        if (!strcasecmp(k_buttons[b], name)) return (PlatformPadButton)b;
    return PPAD_BUTTON_COUNT;
}

const char *platform_pad_axis_name(PlatformPadAxis a) { return a < PPAD_AXIS_COUNT ? k_axes[a] : ""; }

PlatformPadAxis platform_pad_axis_from_name(const char *name) {
    for (int a = 0; name && a < PPAD_AXIS_COUNT; a++)
        if (!strcasecmp(k_axes[a], name)) return (PlatformPadAxis)a;
    return PPAD_AXIS_COUNT;
}
