#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H
// Wide-character ncurses for the terminal adapter (the only code that touches curses).
// Curses exposes much of its API as macros that Swift cannot import (attributes, colour pairs,
// mouse masks, stdscr under some builds); they get small `static inline` wrappers here, prefixed
// `cn_`. The signal handlers live here too because they must be async-signal-minded C, not Swift.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#if defined(__APPLE__)
// macOS: the SDK's curses.h is ncurses with the wide-character API (enabled by the defines above).
#include <curses.h>
#else
#include <ncursesw/curses.h>
#endif
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

// MARK: - Screen

/// `newterm` on the process's stdin/stdout; NULL (instead of `initscr`'s exit) when the terminal
/// type is unknown, so the caller can print a clear message and choose its own exit status.
static inline SCREEN *cn_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_keypad_on(void) { return keypad(stdscr, TRUE); }
static inline int cn_clearok(void) { return clearok(curscr, TRUE); }
static inline int cn_wnoutrefresh(void) { return wnoutrefresh(stdscr); }

/// True when the C library's character set is UTF-8 (after `setlocale(LC_ALL, "")`).
static inline int cn_locale_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

// MARK: - Output

enum { CN_BOLD = 1, CN_DIM = 2, CN_REVERSE = 4, CN_UNDERLINE = 8 };

static inline attr_t cn_attributes(int flags) {
    attr_t a = A_NORMAL;
    if (flags & CN_BOLD) a |= A_BOLD;
    if (flags & CN_DIM) a |= A_DIM;
    if (flags & CN_REVERSE) a |= A_REVERSE;
    if (flags & CN_UNDERLINE) a |= A_UNDERLINE;
    return a;
}

/// Writes one (already vetted, single-column) scalar at (y, x) with attribute flags and a pair.
static inline int cn_put(int y, int x, uint32_t scalar, int flags, int pair) {
    wchar_t text[2] = { (wchar_t)scalar, 0 };
    cchar_t cell;
    if (setcchar(&cell, text, cn_attributes(flags), (short)pair, NULL) != OK) return ERR;
    return mvwadd_wch(stdscr, y, x, &cell);
}

/// Display width of a scalar in the current locale (-1: not printable).
static inline int cn_wcwidth(uint32_t scalar) { return wcwidth((wchar_t)scalar); }

// MARK: - Input

static inline int cn_get_wch(uint32_t *out) {
    wint_t ch = 0;
    int status = wget_wch(stdscr, &ch);
    *out = (uint32_t)ch;
    return status;
}
static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }

// MARK: - Mouse

enum { CN_MOUSE_NONE = 0, CN_MOUSE_CLICK = 1, CN_MOUSE_WHEEL_UP = 2, CN_MOUSE_WHEEL_DOWN = 3 };

static inline int cn_mouse_on(void) {
    mouseinterval(0); // report presses at once instead of waiting to compose clicks
    mmask_t wanted = BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED;
#ifdef BUTTON5_PRESSED
    wanted |= BUTTON5_PRESSED;
#endif
    return mousemask(wanted, NULL) != 0;
}
static inline void cn_mouse_off(void) { mousemask(0, NULL); }

/// Decodes the pending mouse event: returns one of CN_MOUSE_*, with the cell in *x, *y.
static inline int cn_get_mouse(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return CN_MOUSE_NONE;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON4_PRESSED) return CN_MOUSE_WHEEL_UP;
#ifdef BUTTON5_PRESSED
    if (event.bstate & BUTTON5_PRESSED) return CN_MOUSE_WHEEL_DOWN;
#endif
    if (event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) return CN_MOUSE_CLICK;
    return CN_MOUSE_NONE;
}

// MARK: - Terminal restoration from signal handlers
//
// The handlers keep no state of their own: "is curses active?" is `stdscr != NULL && !isendwin()`.
// endwin() restores the saved tty modes (tcsetattr), shows the cursor, leaves the alternate
// screen, and (with mousemask(0) first) turns mouse reporting off. That is not strictly
// async-signal-safe, but it is what ncurses' own handlers do, and the alternative — a terminal
// left in raw mode — is worse. Only one Swift file may call cn_install_signal_handlers /
// cn_remove_signal_handlers, so that the saved previous actions below exist once.

static inline void cn_restore_terminal(void) {
    if (stdscr != NULL && !isendwin()) {
        mousemask(0, NULL);
        endwin();
    }
}

static inline struct sigaction *cn_saved_actions(void) {
    static struct sigaction saved[65];
    return saved;
}

static inline void cn_on_terminate(int sig, siginfo_t *info, void *context) {
    (void)info; (void)context;
    int saved_errno = errno;
    cn_restore_terminal();
    signal(sig, SIG_DFL);
    raise(sig); // pending until this handler returns; then the default action ends the process
    errno = saved_errno;
}

static inline void cn_on_crash(int sig, siginfo_t *info, void *context) {
    cn_restore_terminal();
    // From here on the default action applies, whatever the previous handler does.
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    // Chain to whoever had the signal before (the Swift runtime's backtracer), with the original
    // siginfo and context, now that its report lands on a sane terminal.
    struct sigaction previous = cn_saved_actions()[sig];
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

static inline void cn_on_stop(int sig) {
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
    raise(SIGTSTP); // stops here until SIGCONT
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

static inline void cn_install_signal_handlers(void) {
    struct sigaction action;
    unsigned i;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_SIGINFO;
    action.sa_sigaction = cn_on_terminate;
    for (i = 0; i < sizeof cn_terminate_signals / sizeof *cn_terminate_signals; i++) {
        int sig = cn_terminate_signals[i];
        sigaction(sig, NULL, &cn_saved_actions()[sig]);
        // Ignored on purpose by whoever started us (nohup ignores SIGHUP): leave it ignored.
        if (!(cn_saved_actions()[sig].sa_flags & SA_SIGINFO) && cn_saved_actions()[sig].sa_handler == SIG_IGN) continue;
        sigaction(sig, &action, NULL);
    }
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    action.sa_sigaction = cn_on_crash;
    for (i = 0; i < sizeof cn_crash_signals / sizeof *cn_crash_signals; i++) {
        int sig = cn_crash_signals[i];
        sigaction(sig, &action, &cn_saved_actions()[sig]);
    }
    // A parent may have started us with some of these blocked (a test runner, a daemon): then
    // they could never reach the handlers. Unblock exactly the ones handled here.
    sigset_t handled;
    sigemptyset(&handled);
    for (i = 0; i < sizeof cn_terminate_signals / sizeof *cn_terminate_signals; i++) sigaddset(&handled, cn_terminate_signals[i]);
    for (i = 0; i < sizeof cn_crash_signals / sizeof *cn_crash_signals; i++) sigaddset(&handled, cn_crash_signals[i]);
    sigaddset(&handled, SIGTSTP);
    sigaddset(&handled, SIGCONT);
    sigaddset(&handled, SIGWINCH);
    sigprocmask(SIG_UNBLOCK, &handled, NULL);
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    sigemptyset(&stop.sa_mask);
    stop.sa_flags = SA_RESTART;
    stop.sa_handler = cn_on_stop;
    sigaction(SIGTSTP, NULL, &cn_saved_actions()[SIGTSTP]);
    if ((cn_saved_actions()[SIGTSTP].sa_flags & SA_SIGINFO) || cn_saved_actions()[SIGTSTP].sa_handler != SIG_IGN) {
        sigaction(SIGTSTP, &stop, NULL);
    }
}

static inline void cn_remove_signal_handlers(void) {
    unsigned i;
    for (i = 0; i < sizeof cn_terminate_signals / sizeof *cn_terminate_signals; i++) {
        int sig = cn_terminate_signals[i];
        sigaction(sig, &cn_saved_actions()[sig], NULL);
    }
    for (i = 0; i < sizeof cn_crash_signals / sizeof *cn_crash_signals; i++) {
        int sig = cn_crash_signals[i];
        sigaction(sig, &cn_saved_actions()[sig], NULL);
    }
    sigaction(SIGTSTP, &cn_saved_actions()[SIGTSTP], NULL);
}

#endif
