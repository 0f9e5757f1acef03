// Plain (non-variadic) wrappers over libedit, which Swift cannot call directly: el_set,
// el_get and history are C variadic functions. State that must be shared (the prompt text,
// the Ctrl-C flag) lives here in C, once.
#ifndef CEDITLINE_H
#define CEDITLINE_H

#include <stddef.h>

typedef struct editline EditLine;
typedef struct history History;

/// Sets LC_CTYPE from the environment, falling back to C.UTF-8 when that gives "C"/"POSIX"
/// (libedit never calls setlocale itself, and multibyte input needs a UTF-8 locale).
/// Returns the locale now in force.
const char *cel_setup_locale(void);

/// An editor on stdin/stdout/stderr with emacs bindings, a history of `history_size`
/// entries (adjacent duplicates folded) and the prompt from cel_set_prompt.
EditLine *cel_init(const char *program, int history_size);
void cel_end(EditLine *editor);

/// The prompt: `text` may wrap colour escapes in `\1` pairs (EL_PROMPT_ESC).
void cel_set_prompt(const char *text);

/// Binds Tab to `complete`, called with the editor; it returns CC_* codes.
int cel_bind_completion(EditLine *editor, unsigned char (*complete)(EditLine *, int));

/// Reads ~/.editrc (after our functions exist, so bindings to them work).
int cel_source_editrc(EditLine *editor);
/* Binds arrows, Home, End, Delete and Ctrl-D (again after ~/.editrc, which may reset the maps). */
void cel_bind_keys(EditLine *editor);

/// Reads a line. Returns 1 with *line set (no newline), 0 at end of input (Ctrl-D on an
/// empty line), -1 when Ctrl-C abandoned the line.
int cel_gets(EditLine *editor, const char **line, int *length);

/// The line being edited, as UTF-8 bytes, and the cursor's byte offset.
const char *cel_line(EditLine *editor, int *cursor, int *length);
int cel_insert(EditLine *editor, const char *text);
/// Deletes `count` characters (not bytes) before the cursor.
void cel_delete_before(EditLine *editor, int count);

int cel_history_enter(EditLine *editor, const char *line);
int cel_history_load(EditLine *editor, const char *path);
int cel_history_save(EditLine *editor, const char *path);
/// Adds `line` to the history file at `path` without losing what is there: under an flock
/// of the file, the file as it is now (other terminals' lines included) is read, the line
/// entered, and the result written to a temporary file that is renamed over `path`. A kill
/// at any moment leaves the old file or the new one, never an empty or cut one. Keeps the
/// newest `size` entries. Returns 0, or -1 with errno set.
int cel_history_append(const char *path, const char *line, int size);

/// SIGINT without SA_RESTART: el_gets returns with EINTR and the flag is set; during
/// evaluation the same flag is polled between statements.
int cel_install_sigint(void);
int cel_take_sigint(void);
int cel_peek_sigint(void);

/// Terminal width in columns (0 when unknown).
int cel_terminal_columns(void);
/* The terminal's height in rows, or 0 when unknown. */
int cel_terminal_rows(void);

/// Return codes for completion functions.
enum { CEL_CC_REFRESH = 4, CEL_CC_REDISPLAY = 8, CEL_CC_ERROR = 6 };

#endif
