// Wide-character ncurses, compiled here and only here. The macOS SDK's curses.h (ncurses 5.7)
// declares cchar_t, setcchar, mvwadd_wch and wget_wch only under _XOPEN_SOURCE_EXTENDED; ncurses 6
// reads NCURSES_WIDECHAR. Both are defined before the first include, for this file alone.
#define NCURSES_WIDECHAR 1
// glibc declares wcwidth (an X/Open function) only with its X/Open or GNU features; Darwin's headers
// declare it always and ignore _GNU_SOURCE.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#if defined(__APPLE__)
// The SDK's curses.h is ncurses built wide (there is no ncursesw directory or library on macOS).
#include <curses.h>
#else
#include <ncursesw/curses.h>
#endif
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "CNcursesShim.h"

_Static_assert(CN_COLOR_RED == COLOR_RED && CN_COLOR_WHITE == COLOR_WHITE && CN_COLOR_BLACK == COLOR_BLACK,
               "curses colour numbers are the ANSI ones");

// MARK: - Loading (Linux)
//
// On Linux libncursesw is loaded with dlopen by cn_load, before the first curses call, so the
// commands that never draw (all but the explorer) never load it or libtinfo (issue 32). Every
// curses function and variable this file uses is listed here; the macros after the table send
// each use through it, so the code below reads as plain curses. macOS links the SDK's ncurses.
#if defined(__linux__)
#include <dlfcn.h>

#define CN_CURSES_FUNCTIONS(X) \
    X(newterm) X(cbreak) X(noecho) X(nonl) X(keypad) X(intrflush) X(set_escdelay) X(curs_set) \
    X(has_colors) X(start_color) X(use_default_colors) X(init_pair) X(werase) X(wnoutrefresh) \
    X(doupdate) X(setcchar) X(mvwadd_wch) X(wtimeout) X(wget_wch) X(mousemask) X(mouseinterval) \
    X(getmouse) X(isendwin) X(endwin) X(clearok)
#define CN_CURSES_VARIABLES(X) X(stdscr) X(curscr) X(LINES) X(COLS) X(COLORS) X(COLOR_PAIRS)

#define CN_FIELD(name) __typeof__(&name) name;
static struct {
    CN_CURSES_FUNCTIONS(CN_FIELD)
    CN_CURSES_VARIABLES(CN_FIELD)
} curses;
#undef CN_FIELD
static int curses_loaded;
static char curses_problem[256];

const char *cn_load(void) {
    if (curses_loaded) return NULL;
    const char *names[] = { "libncursesw.so.6", "libncursesw.so" };
    void *handle = NULL;
    for (unsigned i = 0; i < sizeof names / sizeof *names && !handle; i++) handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(curses_problem, sizeof curses_problem, "%s could not be loaded (%s): install ncurses (Debian: apt install libncursesw6)",
                 names[0], dlerror());
        return curses_problem;
    }
#define CN_RESOLVE(name)                                                                                  \
    if (!(*(void **)&curses.name = dlsym(handle, #name))) {                                                \
        snprintf(curses_problem, sizeof curses_problem, "%s lacks %s (too old an ncurses?)", names[0], #name); \
        return curses_problem;                                                                             \
    }
    CN_CURSES_FUNCTIONS(CN_RESOLVE)
    CN_CURSES_VARIABLES(CN_RESOLVE)
#undef CN_RESOLVE
    curses_loaded = 1;
    return NULL;
}

// From here on every curses name goes through the table: a function pointer called, a variable read.
#define newterm (*curses.newterm)
#define cbreak (*curses.cbreak)
#define noecho (*curses.noecho)
#define nonl (*curses.nonl)
#define keypad (*curses.keypad)
#define intrflush (*curses.intrflush)
#define set_escdelay (*curses.set_escdelay)
#define curs_set (*curses.curs_set)
#define has_colors (*curses.has_colors)
#define start_color (*curses.start_color)
#define use_default_colors (*curses.use_default_colors)
#define init_pair (*curses.init_pair)
#define werase (*curses.werase)
#define wnoutrefresh (*curses.wnoutrefresh)
#define doupdate (*curses.doupdate)
#define setcchar (*curses.setcchar)
#undef mvwadd_wch  // ncurses may define it as a macro over wmove and wadd_wch
#define mvwadd_wch (*curses.mvwadd_wch)
#define wtimeout (*curses.wtimeout)
#define wget_wch (*curses.wget_wch)
#define mousemask (*curses.mousemask)
#define mouseinterval (*curses.mouseinterval)
#define getmouse (*curses.getmouse)
#define isendwin (*curses.isendwin)
#define endwin (*curses.endwin)
#define clearok (*curses.clearok)
#undef stdscr
#undef curscr
#undef LINES
#undef COLS
#undef COLORS
#undef COLOR_PAIRS
#define stdscr (curses_loaded ? *curses.stdscr : NULL)
#define curscr (*curses.curscr)
#define LINES (*curses.LINES)
#define COLS (*curses.COLS)
#define COLORS (*curses.COLORS)
#define COLOR_PAIRS (*curses.COLOR_PAIRS)
#else
const char *cn_load(void) { return NULL; }
#endif

// MARK: - Screen

int cn_newterm(const char *term) { return newterm((char *)term, stdout, stdin) != NULL; }

void cn_setup_input(void) {
    cbreak();  // keys at once; Ctrl-C / Ctrl-Z still raise SIGINT / SIGTSTP (handled below)
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    // A lone Esc is a key here, not the start of a sequence. set_escdelay is ncurses' extension of
    // 20080119; the macOS SDK's ncurses is 5.7.20081102, so it has it (the fallback is the variable).
#if defined(NCURSES_EXT_FUNCS) && NCURSES_EXT_FUNCS >= 20080119
    set_escdelay(25);
#else
    ESCDELAY = 25;
#endif
    curs_set(0);
}

int cn_lines(void) { return LINES; }
int cn_cols(void) { return COLS; }
int cn_colors(void) { return COLORS; }
int cn_color_pairs(void) { return COLOR_PAIRS; }

int cn_start_colors(int *default_colors) {
    *default_colors = 0;
    if (!has_colors() || start_color() != OK) return 0;
    *default_colors = use_default_colors() == OK;
    return 1;
}

int cn_init_pair(int pair, int foreground, int background) {
    return init_pair((short)pair, (short)foreground, (short)background) == OK;
}

void cn_show_cursor(int visible) { curs_set(visible ? 1 : 0); }
void cn_erase(void) { werase(stdscr); }
void cn_refresh(void) { wnoutrefresh(stdscr); doupdate(); }
void cn_doupdate(void) { doupdate(); }

int cn_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// MARK: - Output

static attr_t cn_attributes(int flags) {
    attr_t a = A_NORMAL;
    if (flags & CN_BOLD) a |= A_BOLD;
    if (flags & CN_DIM) a |= A_DIM;
    if (flags & CN_REVERSE) a |= A_REVERSE;
    if (flags & CN_UNDERLINE) a |= A_UNDERLINE;
    return a;
}

int cn_put(int y, int x, uint32_t scalar, int flags, int pair) {
    wchar_t text[2] = { (wchar_t)scalar, 0 };
    cchar_t cell;
    if (setcchar(&cell, text, cn_attributes(flags), (short)pair, NULL) != OK) return ERR;
    return mvwadd_wch(stdscr, y, x, &cell);
}

int cn_wcwidth(uint32_t scalar) { return wcwidth((wchar_t)scalar); }

// MARK: - Input

static int cn_key_kind(int code) {
    switch (code) {
    case KEY_UP: return CN_KEY_UP;
    case KEY_DOWN: return CN_KEY_DOWN;
    case KEY_LEFT: return CN_KEY_LEFT;
    case KEY_RIGHT: return CN_KEY_RIGHT;
    case KEY_PPAGE: case KEY_SPREVIOUS: return CN_KEY_PAGE_UP;
    case KEY_NPAGE: case KEY_SNEXT: return CN_KEY_PAGE_DOWN;
    case KEY_HOME: case KEY_FIND: case KEY_A1: case KEY_BEG: return CN_KEY_HOME;
    case KEY_END: case KEY_SELECT: case KEY_C1: case KEY_LL: return CN_KEY_END;
    case KEY_ENTER: return CN_KEY_ENTER;
    case KEY_BTAB: return CN_KEY_BACK_TAB;
    case KEY_BACKSPACE: return CN_KEY_BACKSPACE;
    case KEY_RESIZE: return CN_KEY_RESIZE;
    case KEY_MOUSE: return CN_KEY_MOUSE;
    default: return CN_KEY_OTHER;
    }
}

int cn_read(int timeout_ms, uint32_t *out) {
    wtimeout(stdscr, timeout_ms);
    wint_t ch = 0;
    int status = wget_wch(stdscr, &ch);
    if (status == KEY_CODE_YES) {
        *out = (uint32_t)cn_key_kind((int)ch);
        return CN_INPUT_KEY;
    }
    if (status == OK) {
        *out = (uint32_t)ch;
        return CN_INPUT_CHARACTER;
    }
    *out = 0;
    return CN_INPUT_NONE;
}

// MARK: - Mouse

int cn_mouse_version(void) {
#ifdef NCURSES_MOUSE_VERSION
    return NCURSES_MOUSE_VERSION;
#else
    return 1;
#endif
}

int cn_mouse_on(uint64_t mask) {
    mouseinterval(0);  // report presses at once instead of waiting to compose clicks
    return mousemask((mmask_t)mask, NULL) != 0;
}

void cn_mouse_off(void) { mousemask(0, NULL); }

int cn_get_mouse(int *x, int *y, uint64_t *bits) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *x = event.x;
    *y = event.y;
    *bits = (uint64_t)event.bstate;
    return 1;
}

uint64_t cn_mouse_mask_named(int name) {
    switch (name) {
    case CN_MASK_BUTTON1_PRESSED: return BUTTON1_PRESSED;
    case CN_MASK_BUTTON1_CLICKED: return BUTTON1_CLICKED;
    case CN_MASK_BUTTON2_PRESSED: return BUTTON2_PRESSED;
    case CN_MASK_BUTTON4_PRESSED: return BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
    case CN_MASK_BUTTON5_PRESSED: return BUTTON5_PRESSED;
#endif
    case CN_MASK_REPORT_MOUSE_POSITION: return REPORT_MOUSE_POSITION;
    default: return 0;
    }
}

// MARK: - Terminal restoration from signal handlers
//
// The handlers keep no state of their own: "is curses active?" is `stdscr != NULL && !isendwin()`.
// endwin() restores the saved tty modes (tcsetattr), shows the cursor, leaves the alternate
// screen, and (with mousemask(0) first) turns mouse reporting off. That is not strictly
// async-signal-safe, but it is what ncurses' own handlers do, and the alternative — a terminal
// left in raw mode — is worse. The previous actions are saved once, in this file.

void cn_restore_terminal(void) {
    if (stdscr != NULL && !isendwin()) {
        mousemask(0, NULL);
        endwin();
    }
}

static struct sigaction cn_saved[65];

static void cn_on_terminate(int sig, siginfo_t *info, void *context) {
    (void)info; (void)context;
    int saved_errno = errno;
    cn_restore_terminal();
    signal(sig, SIG_DFL);
    raise(sig);  // pending until this handler returns; then the default action ends the process
    errno = saved_errno;
}

static void cn_on_crash(int sig, siginfo_t *info, void *context) {
    cn_restore_terminal();
    // From here on the default action applies, whatever the previous handler does.
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    // Chain to whoever had the signal before (the Swift runtime's backtracer), with the original
    // siginfo and context, now that its report lands on a sane terminal.
    struct sigaction previous = cn_saved[sig];
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) previous.sa_sigaction(sig, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
    }
    sigaction(sig, &dfl, NULL);
    // A kernel-raised fault (si_code > 0) faults again on return, now with the default action;
    // a sent signal, a breakpoint trap or abort() is raised again (delivered when we return).
    if (info == NULL || info->si_code <= 0 || sig == SIGTRAP || sig == SIGABRT) raise(sig);
}

static void cn_on_stop(int sig) {
    (void)sig;
    int saved_errno = errno;
    int was_active = stdscr != NULL && !isendwin();
    if (was_active) endwin();
    struct sigaction ours, dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGTSTP, &dfl, &ours);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGTSTP);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(SIGTSTP);  // stops here until SIGCONT
    sigaction(SIGTSTP, &ours, NULL);
    if (was_active) {
        // doupdate() after endwin() re-enters program mode, re-enables the mouse and repaints.
        clearok(curscr, TRUE);
        doupdate();
    }
    errno = saved_errno;
}

static const int cn_terminate_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static const int cn_crash_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define CN_COUNT(array) (sizeof array / sizeof *array)

void cn_install_signal_handlers(void) {
    struct sigaction action;
    unsigned i;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO;
    action.sa_sigaction = cn_on_terminate;
    for (i = 0; i < CN_COUNT(cn_terminate_signals); i++) {
        int sig = cn_terminate_signals[i];
        sigaction(sig, NULL, &cn_saved[sig]);
        // Ignored on purpose by whoever started us (nohup ignores SIGHUP): leave it ignored.
        if (!(cn_saved[sig].sa_flags & SA_SIGINFO) && cn_saved[sig].sa_handler == SIG_IGN) continue;
        sigaction(sig, &action, NULL);
    }
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    action.sa_sigaction = cn_on_crash;
    for (i = 0; i < CN_COUNT(cn_crash_signals); i++) {
        int sig = cn_crash_signals[i];
        sigaction(sig, &action, &cn_saved[sig]);
    }
    // A parent may have started us with some of these blocked (a test runner, a daemon): then
    // they could never reach the handlers. Unblock exactly the ones handled here.
    sigset_t handled;
    sigemptyset(&handled);
    for (i = 0; i < CN_COUNT(cn_terminate_signals); i++) sigaddset(&handled, cn_terminate_signals[i]);
    for (i = 0; i < CN_COUNT(cn_crash_signals); i++) sigaddset(&handled, cn_crash_signals[i]);
    sigaddset(&handled, SIGTSTP);
    sigaddset(&handled, SIGCONT);
    sigaddset(&handled, SIGWINCH);
    sigprocmask(SIG_UNBLOCK, &handled, NULL);
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = SA_RESTART;
    stop.sa_handler = cn_on_stop;
    sigaction(SIGTSTP, NULL, &cn_saved[SIGTSTP]);
    if ((cn_saved[SIGTSTP].sa_flags & SA_SIGINFO) || cn_saved[SIGTSTP].sa_handler != SIG_IGN) {
        sigaction(SIGTSTP, &stop, NULL);
    }
}

void cn_remove_signal_handlers(void) {
    unsigned i;
    for (i = 0; i < CN_COUNT(cn_terminate_signals); i++) sigaction(cn_terminate_signals[i], &cn_saved[cn_terminate_signals[i]], NULL);
    for (i = 0; i < CN_COUNT(cn_crash_signals); i++) sigaction(cn_crash_signals[i], &cn_saved[cn_crash_signals[i]], NULL);
    sigaction(SIGTSTP, &cn_saved[SIGTSTP], NULL);
}
