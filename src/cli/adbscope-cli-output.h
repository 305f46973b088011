/* adbscope-cli-output.h: where a headless command's files go
 *
 * An output is checked before the run (adbscope_cli_output_prepare) and
 * written after it, every write checked.  A symlink is followed; a device,
 * pipe or terminal is written in place as a stream; a regular file (or a
 * new one) is replaced atomically by a temporary file in its directory and
 * rename(); a non-regular file is never replaced.  docs/architecture.md,
 * "Where output goes".
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _AdbscopeCliOutput AdbscopeCliOutput;

AdbscopeCliOutput *adbscope_cli_output_prepare     (const char         *path,
                                                    GError            **error);
/* Standard output as an output (checked open and not a closed pipe). */
AdbscopeCliOutput *adbscope_cli_output_new_stdout  (GError            **error);
const char        *adbscope_cli_output_get_path    (AdbscopeCliOutput  *self);
gboolean           adbscope_cli_output_is_stream   (AdbscopeCliOutput  *self);
/* TRUE when both name the same file, or the same pipe or terminal. */
gboolean           adbscope_cli_output_same_file   (AdbscopeCliOutput  *a,
                                                    AdbscopeCliOutput  *b);
/* TRUE when @path (an input of the command, e.g. the recording `report`
 * reads) is the file this output would write: same inode, or for an
 * output not made yet the same canonical path. */
gboolean           adbscope_cli_output_is_file     (AdbscopeCliOutput  *self,
                                                    const char         *path);
/* For a regular file: TRUE; for a device, pipe or terminal (written in
 * place): FALSE. */
gboolean           adbscope_cli_output_is_regular  (AdbscopeCliOutput  *self);
/* A regular file (or a new one) named as such: not a symlink (so not
 * /dev/stdout either), not a device, pipe or terminal. */
gboolean           adbscope_cli_output_is_plain_file (AdbscopeCliOutput *self);
/* Writes the whole of @data: a stream in place, a regular file atomically. */
gboolean           adbscope_cli_output_write_all   (AdbscopeCliOutput  *self,
                                                    const char         *data,
                                                    gsize               len,
                                                    GError            **error);
/* For a stream of rows (--samples): opens once, then appends; every write
 * checked.  A regular file is replaced atomically at this moment (an empty
 * temporary file renamed over it): call it when the first row is there, so
 * a run that never started leaves the old file as it was. */
gboolean           adbscope_cli_output_open_stream (AdbscopeCliOutput  *self,
                                                    GError            **error);
gboolean           adbscope_cli_output_append      (AdbscopeCliOutput  *self,
                                                    const char         *data,
                                                    gsize               len,
                                                    GError            **error);
gboolean           adbscope_cli_output_close       (AdbscopeCliOutput  *self,
                                                    GError            **error);
/* For a file another part writes by name (the capture's pcap): the path to
 * give it — for a regular file a new temporary file beside it, for a
 * device, pipe or terminal the path itself.  commit_temp renames the
 * temporary file over the output (when the run has started: an earlier
 * file is replaced only then), abandon_temp removes it. */
char              *adbscope_cli_output_make_temp   (AdbscopeCliOutput  *self,
                                                    GError            **error);
gboolean           adbscope_cli_output_commit_temp (AdbscopeCliOutput  *self,
                                                    const char         *temp,
                                                    GError            **error);
void               adbscope_cli_output_abandon_temp (AdbscopeCliOutput *self,
                                                    const char         *temp);
void               adbscope_cli_output_free        (AdbscopeCliOutput  *self);

/* The one writer of standard output for every command: whatever stdio
 * still holds, then @data, every byte checked (EPIPE, ENOSPC, EBADF). */
gboolean           adbscope_cli_output_write_stdout (const char        *data,
                                                     gsize              len,
                                                     GError           **error);

/* Where a report goes when its own destination failed: a new file in the
 * user's state directory.  Returns its path, or NULL. */
char              *adbscope_cli_output_save_fallback (const char       *data,
                                                      gsize             len,
                                                      GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (AdbscopeCliOutput, adbscope_cli_output_free)

G_END_DECLS
