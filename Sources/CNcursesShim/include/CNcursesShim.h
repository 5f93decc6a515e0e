#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
// The terminal adapter's view of curses: plain C integers only, no curses types. shim.c includes
// curses.h with the wide-character API switched on for itself (`_XOPEN_SOURCE_EXTENDED`, which the
// macOS SDK's ncurses 5.7 reads; `NCURSES_WIDECHAR`, which ncurses 6 reads), so no Swift target
// needs a compiler flag and no Swift file sees `cchar_t` or the macros Swift cannot import.
#include <stdint.h>

// MARK: - Screen

/// `newterm` with the terminal description `term` (NULL: $TERM) on stdin/stdout: 1 when curses
/// runs, 0 when there is no terminfo entry for it (instead of `initscr`'s exit).
/// Loads curses (Linux: libncursesw by dlopen; a no-op where it is linked). NULL when it is ready,
/// else the problem in words. Call it before any other cn_ function that touches curses.
const char *cn_load(void);
int cn_newterm(const char *term);
/// cbreak, noecho, nonl, keypad, no flush on interrupt, a 25 ms ESC delay, hidden cursor.
void cn_setup_input(void);
int cn_lines(void);
int cn_cols(void);
int cn_colors(void);
int cn_color_pairs(void);
/// start_color (and use_default_colors when asked); 1 when colours are on. *default_colors is
/// 1 when -1 may be used as a colour (the terminal's own foreground / background).
int cn_start_colors(int *default_colors);
/// init_pair; 1 on success.
int cn_init_pair(int pair, int foreground, int background);
void cn_show_cursor(int visible);
void cn_erase(void);
/// wnoutrefresh(stdscr) then doupdate(): the changed cells reach the terminal.
void cn_refresh(void);
/// doupdate() alone (flush what is pending before writing an escape sequence ourselves).
void cn_doupdate(void);
/// True when the C library's character set is UTF-8 (after `setlocale(LC_ALL, "")`).
int cn_locale_is_utf8(void);

enum { CN_COLOR_BLACK = 0, CN_COLOR_RED, CN_COLOR_GREEN, CN_COLOR_YELLOW, CN_COLOR_BLUE, CN_COLOR_MAGENTA,
       CN_COLOR_CYAN, CN_COLOR_WHITE };

// MARK: - Output

enum { CN_BOLD = 1, CN_DIM = 2, CN_REVERSE = 4, CN_UNDERLINE = 8 };

/// Writes one (already vetted, single-column) scalar at (y, x) with CN_* attribute flags and a pair.
int cn_put(int y, int x, uint32_t scalar, int flags, int pair);
/// Display width of a scalar in the current locale (-1: not printable).
int cn_wcwidth(uint32_t scalar);

// MARK: - Input

enum { CN_INPUT_NONE = 0, CN_INPUT_CHARACTER = 1, CN_INPUT_KEY = 2 };
/// Waits up to `timeout_ms` (-1: no limit, 0: do not wait) for input: CN_INPUT_CHARACTER with the
/// scalar in *out, CN_INPUT_KEY with a CN_KEY_* in *out, or CN_INPUT_NONE.
int cn_read(int timeout_ms, uint32_t *out);

enum {
    CN_KEY_OTHER = 0, CN_KEY_UP, CN_KEY_DOWN, CN_KEY_LEFT, CN_KEY_RIGHT, CN_KEY_PAGE_UP, CN_KEY_PAGE_DOWN,
    CN_KEY_HOME, CN_KEY_END, CN_KEY_ENTER, CN_KEY_BACK_TAB, CN_KEY_BACKSPACE, CN_KEY_RESIZE, CN_KEY_MOUSE
};

// MARK: - Mouse

/// NCURSES_MOUSE_VERSION of the curses.h shim.c was compiled against: 1 is the old ABI (the macOS
/// SDK's ncurses 5.7: six bits per button, no button 5), 2 the ncurses 6 one.
int cn_mouse_version(void);
/// mousemask(mask); 1 when some of it can be reported.
int cn_mouse_on(uint64_t mask);
void cn_mouse_off(void);
/// getmouse: 1 with the cell in *x, *y and the event's bstate bits in *bits; 0 when none.
int cn_get_mouse(int *x, int *y, uint64_t *bits);

/// The compiled header's own masks, for a test that checks the adapter's decoder against them
/// (0 for a name the header does not define).
enum { CN_MASK_BUTTON1_PRESSED, CN_MASK_BUTTON1_CLICKED, CN_MASK_BUTTON2_PRESSED, CN_MASK_BUTTON4_PRESSED,
       CN_MASK_BUTTON5_PRESSED, CN_MASK_REPORT_MOUSE_POSITION };
uint64_t cn_mouse_mask_named(int name);

// MARK: - Terminal restoration

/// endwin() (after turning the mouse off) unless curses is not active or a handler already did.
void cn_restore_terminal(void);
/// SIGINT, SIGTERM, SIGHUP, SIGQUIT: restore the terminal, then die of the signal. SIGSEGV,
/// SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP: restore, then the previous handler (the Swift
/// runtime's backtracer) or the default action. SIGTSTP: restore, stop; on SIGCONT repaint.
void cn_install_signal_handlers(void);
void cn_remove_signal_handlers(void);

#endif
