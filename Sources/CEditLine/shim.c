#include "CEditLine.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <limits.h>
#include <histedit.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

static char prompt_text[1024] = "closet> ";
static volatile sig_atomic_t sigint_seen = 0;
/* Set by SIGCONT (fg after Ctrl-Z): the reader redraws the prompt and line. */
static volatile sig_atomic_t continued = 0;
static History *history_of_editor = NULL;

const char *cel_setup_locale(void) {
    const char *current = setlocale(LC_CTYPE, "");
    if (current == NULL || strcmp(current, "C") == 0 || strcmp(current, "POSIX") == 0) {
        const char *fallback = setlocale(LC_CTYPE, "C.UTF-8");
        if (fallback != NULL) current = fallback;
    }
    return current ? current : "C";
}

static char *prompt_function(EditLine *editor) {
    (void)editor;
    return prompt_text;
}

void cel_set_prompt(const char *text) {
    strncpy(prompt_text, text, sizeof prompt_text - 1);
    prompt_text[sizeof prompt_text - 1] = '\0';
}

/* Keys that arrive as escape sequences (arrows, Home, End, Delete, Ctrl-arrows) are read
   whole here and handed to libedit as one character each, bound below to the editing
   function the key means. libedit's incremental search (Ctrl-R) ends at a bare ESC and then
   inserted the rest of the sequence as text ("[D" for Left); one character instead ends
   the search and does what the key says, as in readline. The characters are C1 controls,
   which a UTF-8 terminal never sends as typed text. */
enum {
    KEY_UP = 0x81, KEY_DOWN, KEY_RIGHT, KEY_LEFT, KEY_HOME, KEY_END, KEY_DELETE, KEY_WORD_LEFT, KEY_WORD_RIGHT
};

static const struct {
    wchar_t key;
    const char *function;
} key_functions[] = {
    {KEY_UP, "ed-search-prev-history"}, {KEY_DOWN, "ed-search-next-history"}, {KEY_RIGHT, "ed-next-char"},
    {KEY_LEFT, "ed-prev-char"},        {KEY_HOME, "ed-move-to-beg"},      {KEY_END, "ed-move-to-end"},
    {KEY_DELETE, "ed-delete-next-char"}, {KEY_WORD_LEFT, "ed-prev-word"}, {KEY_WORD_RIGHT, "em-next-word"},
};

/* Bytes read ahead after an ESC that were not a known key: handed out one by one. */
static unsigned char pending_bytes[16];
static size_t pending_count = 0, pending_next = 0;

/* The next byte: 1, 0 at end of input, -1 on error (errno set), -2 when `wait_ms` passed
   with nothing to read (only with wait_ms >= 0), -3 when SIGCONT interrupted the wait. */
static int next_byte(unsigned char *byte, int wait_ms) {
    if (pending_next < pending_count) {
        *byte = pending_bytes[pending_next++];
        return 1;
    }
    for (;;) {
        if (sigint_seen) {
            errno = EINTR;
            return -1;
        }
        if (wait_ms >= 0) {
            struct pollfd input = {.fd = STDIN_FILENO, .events = POLLIN};
            int ready = poll(&input, 1, wait_ms);
            if (ready == 0) return -2;
            if (ready < 0) {
                if (errno == EINTR && !sigint_seen) continue;
                return -1;
            }
        }
        ssize_t got = read(STDIN_FILENO, byte, 1);
        if (got < 0) {
            if (errno == EINTR && continued) return -3; /* the reader redraws, then reads on */
            if (errno == EINTR && !sigint_seen) continue; /* another signal: keep reading */
            return -1;
        }
        return got == 0 ? 0 : 1;
    }
}

/* After an ESC: the key a CSI or SS3 sequence names, or 0 (its bytes are then kept to be
   read as they came). A lone ESC (nothing within 30 ms) is itself. */
static wchar_t escape_sequence(void) {
    unsigned char sequence[sizeof pending_bytes];
    size_t length = 0;
    unsigned char byte;
    if (next_byte(&byte, 30) != 1) return 0;
    sequence[length++] = byte;
    if (byte == '[' || byte == 'O') {
        /* Parameter bytes, then one final byte in @..~ */
        while (length < sizeof sequence) {
            if (next_byte(&byte, 30) != 1) break;
            sequence[length++] = byte;
            if (byte >= 0x40 && byte <= 0x7E) break;
        }
        unsigned char final = sequence[length - 1];
        int modified = length >= 4 && sequence[length - 2] >= '2' && sequence[length - 3] == ';';
        if (length == 2 || (sequence[0] == '[' && modified)) {
            switch (final) {
            case 'A': return KEY_UP;
            case 'B': return KEY_DOWN;
            case 'C': return modified ? KEY_WORD_RIGHT : KEY_RIGHT;
            case 'D': return modified ? KEY_WORD_LEFT : KEY_LEFT;
            case 'H': return KEY_HOME;
            case 'F': return KEY_END;
            }
        }
        if (sequence[0] == '[' && final == '~' && length == 3) {
            switch (sequence[1]) {
            case '1': case '7': return KEY_HOME;
            case '4': case '8': return KEY_END;
            case '3': return KEY_DELETE;
            }
        }
    }
    memcpy(pending_bytes, sequence, length);
    pending_count = length;
    pending_next = 0;
    return 0;
}

/* libedit's own reader restarts or ignores a SIGINT that lands while it is busy redrawing
   (not blocked in read), so Ctrl-C typed quickly was lost and the half-typed line kept.
   This reader checks the flag before every read, so no Ctrl-C is missed. It decodes
   multibyte input with the locale, as libedit's reader does. */
static int read_character(EditLine *editor, wchar_t *character) {
    char bytes[MB_LEN_MAX];
    size_t count = 0;
    mbstate_t state;
    memset(&state, 0, sizeof state);
    for (;;) {
        unsigned char byte;
        int got = next_byte(&byte, -1);
        if (continued) {
            /* Back from Ctrl-Z: libedit's own SIGCONT handling asks for a redisplay it then
               skips, so the prompt and the half-typed line were gone. Draw them again. */
            continued = 0;
            el_set(editor, EL_REFRESH);
        }
        if (got == -3) continue;
        if (got < 0) return -1;
        if (got == 0) return 0;
        if (byte == 0x1B && count == 0 && pending_next >= pending_count) {
            wchar_t key = escape_sequence();
            *character = key != 0 ? key : 0x1B;
            return 1;
        }
        bytes[count++] = (char)byte;
        /* After (size_t)-2 the state holds the bytes so far: feed only the new one. */
        size_t used = mbrtowc(character, &bytes[count - 1], 1, &state);
        if (used == (size_t)-2 && count < sizeof bytes) continue; /* more bytes of this character */
        if (used == (size_t)-1 || used == (size_t)-2) *character = (wchar_t)byte;
        return 1;
    }
}

/* Ctrl-D: end of input on an empty line, else delete the character under the cursor.
   libedit's own binding wrote a literal "^D" on the way out. */
static unsigned char eof_or_delete(EditLine *editor, int key) {
    (void)key;
    const LineInfo *info = el_line(editor);
    if (info->buffer == info->lastchar) return CC_EOF;
    if (info->cursor < info->lastchar) {
        el_cursor(editor, 1);
        el_deletestr(editor, 1);
        return CC_REFRESH;
    }
    return CC_ERROR;
}

/* The keys above bound to what they mean, in the main map and the alternate one (vi's
   command mode); again after ~/.editrc, whose `bind -v` starts the maps over. */
void cel_bind_keys(EditLine *editor) {
    el_set(editor, EL_BIND, "^D", "closet-eof-or-delete", (const char *)NULL);
    for (size_t i = 0; i < sizeof key_functions / sizeof key_functions[0]; i++) {
        const wchar_t key[2] = {key_functions[i].key, 0};
        wchar_t function[64];
        mbstowcs(function, key_functions[i].function, 64);
        el_wset(editor, EL_BIND, key, function, (const wchar_t *)NULL);
        el_wset(editor, EL_BIND, L"-a", key, function, (const wchar_t *)NULL);
    }
}

EditLine *cel_init(const char *program, int history_size) {
    EditLine *editor = el_init(program, stdin, stdout, stderr);
    if (editor == NULL) return NULL;
    el_set(editor, EL_EDITOR, "emacs");
    el_set(editor, EL_PROMPT_ESC, prompt_function, '\1');
    el_set(editor, EL_SIGNAL, 1);
    el_set(editor, EL_GETCFN, read_character);
    /* libedit's insert-character path miscounts a wide character it redraws after the
       insertion (Hangul: one backspace over two cells, the cursor one cell off). Without
       insert capabilities it rewrites the rest of the line and counts cells right. */
    el_set(editor, EL_SETTC, "im", "", (const char *)NULL);
    el_set(editor, EL_SETTC, "ic", "", (const char *)NULL);
    el_set(editor, EL_SETTC, "IC", "", (const char *)NULL);
    el_set(editor, EL_SETTC, "ei", "", (const char *)NULL);
    el_set(editor, EL_ADDFN, "closet-eof-or-delete", "end of input on an empty line, else delete", eof_or_delete);
    cel_bind_keys(editor);
    History *entries = history_init();
    if (entries != NULL) {
        HistEvent event;
        history(entries, &event, H_SETSIZE, history_size);
        history(entries, &event, H_SETUNIQUE, 1);
        el_set(editor, EL_HIST, history, entries);
        history_of_editor = entries;
    }
    return editor;
}

void cel_end(EditLine *editor) {
    if (history_of_editor != NULL) {
        history_end(history_of_editor);
        history_of_editor = NULL;
    }
    el_end(editor);
}

int cel_bind_completion(EditLine *editor, unsigned char (*complete)(EditLine *, int)) {
    if (el_set(editor, EL_ADDFN, "closet-complete", "complete the word before the cursor", complete) != 0) return -1;
    return el_set(editor, EL_BIND, "^I", "closet-complete", (const char *)NULL);
}

int cel_source_editrc(EditLine *editor) { return el_source(editor, NULL); }

int cel_gets(EditLine *editor, const char **line, int *length) {
    int count = 0;
    sigint_seen = 0; /* a Ctrl-C during the last statement is spent */
    errno = 0;
    const char *text = el_gets(editor, &count);
    if (text == NULL) {
        /* Ctrl-C inside an incremental search (Ctrl-R) ends it as end of input, not as an
           error: the flag tells them apart, so it abandons the line instead of quitting. */
        if (sigint_seen || (count == -1 && errno == EINTR)) {
            sigint_seen = 0;
            return -1;
        }
        return 0;
    }
    *line = text;
    *length = count;
    return 1;
}

const char *cel_line(EditLine *editor, int *cursor, int *length) {
    const LineInfo *info = el_line(editor);
    *cursor = (int)(info->cursor - info->buffer);
    *length = (int)(info->lastchar - info->buffer);
    return info->buffer;
}

int cel_insert(EditLine *editor, const char *text) { return el_insertstr(editor, text); }

void cel_delete_before(EditLine *editor, int count) { el_deletestr(editor, count); }

int cel_history_enter(EditLine *editor, const char *line) {
    (void)editor;
    if (history_of_editor == NULL) return -1;
    HistEvent event;
    return history(history_of_editor, &event, H_ENTER, line);
}

int cel_history_load(EditLine *editor, const char *path) {
    (void)editor;
    if (history_of_editor == NULL) return -1;
    HistEvent event;
    return history(history_of_editor, &event, H_LOAD, path);
}

int cel_history_save(EditLine *editor, const char *path) {
    (void)editor;
    if (history_of_editor == NULL) return -1;
    HistEvent event;
    return history(history_of_editor, &event, H_SAVE, path);
}

int cel_history_append(const char *path, const char *line, int size) {
    int lock = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
    if (lock < 0) return -1;
    while (flock(lock, LOCK_EX) != 0) {
        if (errno != EINTR) {
            close(lock);
            return -1;
        }
    }
    History *merged = history_init();
    int result = -1;
    if (merged != NULL) {
        HistEvent event;
        history(merged, &event, H_SETSIZE, size);
        history(merged, &event, H_SETUNIQUE, 1);
        history(merged, &event, H_LOAD, path);  // an empty or new file loads nothing
        history(merged, &event, H_ENTER, line);
        char temporary[PATH_MAX];
        if (snprintf(temporary, sizeof temporary, "%s.%ld.tmp", path, (long)getpid()) < (int)sizeof temporary) {
            if (history(merged, &event, H_SAVE, temporary) >= 0 && rename(temporary, path) == 0) {
                result = 0;
            } else {
                int saved = errno;
                unlink(temporary);
                errno = saved;
            }
        }
        history_end(merged);
    }
    flock(lock, LOCK_UN);
    close(lock);
    return result;
}

static void on_sigint(int signal_number) {
    (void)signal_number;
    sigint_seen = 1;
}

static void on_sigcont(int signal_number) {
    (void)signal_number;
    continued = 1;
}

int cel_install_sigint(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a blocked read returns EINTR
    if (sigaction(SIGINT, &action, NULL) != 0) return -1;
    struct sigaction resumed;
    memset(&resumed, 0, sizeof resumed);
    resumed.sa_handler = on_sigcont;
    sigemptyset(&resumed.sa_mask);
    resumed.sa_flags = 0; /* no SA_RESTART: the blocked read returns, and the line is redrawn */
    if (sigaction(SIGCONT, &resumed, NULL) != 0) return -1;
    /* A parent may have blocked SIGINT, and exec keeps the mask: unblock it, or Ctrl-C
       would stay pending forever. */
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    return sigprocmask(SIG_UNBLOCK, &interrupt, NULL);
}

int cel_take_sigint(void) {
    int seen = sigint_seen;
    sigint_seen = 0;
    return seen;
}

int cel_peek_sigint(void) { return sigint_seen; }

int cel_terminal_columns(void) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    return 0;
}

int cel_terminal_rows(void) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_row > 0) return size.ws_row;
    return 0;
}
