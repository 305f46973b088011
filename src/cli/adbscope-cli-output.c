/* adbscope-cli-output.c: see adbscope-cli-output.h */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adbscope-error.h"
#include "adbscope-cli-output.h"

#define MAX_SYMLINKS 40

struct _AdbscopeCliOutput
{
  char     *path;      /* as given, for messages */
  char     *target;    /* symlinks followed; for a new file its future path */
  gboolean  is_stdout;
  gboolean  inherited; /* /dev/stdout, /dev/fd/N: our own open fd, kept */
  gboolean  stream;    /* device, pipe, terminal: written in place */
  gboolean  exists;
  gboolean  is_link;   /* the name given is a symlink (/dev/stdout, …) */
  dev_t     dev;
  ino_t     ino;
  mode_t    mode;
  int       fd;        /* open stream (open_stream), or -1 */
};

static AdbscopeCliOutput *
output_new (const char *path)
{
  AdbscopeCliOutput *self = g_new0 (AdbscopeCliOutput, 1);

  self->path = g_strdup (path);
  self->fd = -1;
  return self;
}

void
adbscope_cli_output_free (AdbscopeCliOutput *self)
{
  if (self == NULL)
    return;
  if (self->fd >= 0 && !self->is_stdout && !self->inherited)
    close (self->fd);
  g_free (self->path);
  g_free (self->target);
  g_free (self);
}

static const char *
display_name (AdbscopeCliOutput *self)
{
  return self->is_stdout ? _("standard output") : self->path;
}

static gboolean
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *path)
{
  g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
               /* TRANSLATORS: "Cannot write /x/report.json: Permission denied" */
               _("Cannot write %s: %s"), path, g_strerror (errsv));
  return FALSE;
}

/* Proves that a file can be created in @dir now (then removes it). */
static gboolean
check_dir_writable (const char  *dir,
                    const char  *path,
                    GError     **error)
{
  g_autofree char *probe = g_build_filename (dir, ".adbscope-XXXXXX", NULL);
  GStatBuf st;
  int fd;

  if (g_stat (dir, &st) != 0)
    {
      int errsv = errno;

      if (errsv == ENOENT)
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot write %s: the folder %s does not exist"), path, dir);
          return FALSE;
        }
      return set_errno_error (error, errsv, path);
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write %s: %s is not a folder"), path, dir);
      return FALSE;
    }
  fd = g_mkstemp_full (probe, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    return set_errno_error (error, errno, path);
  close (fd);
  g_unlink (probe);
  return TRUE;
}

/* Follows a dangling symlink chain to the path a new file would get. */
static char *
resolve_dangling (const char  *path,
                  GError     **error)
{
  g_autofree char *cur = g_strdup (path);

  for (int i = 0; i < MAX_SYMLINKS; i++)
    {
      g_autofree char *link = NULL;
      GStatBuf st;

      if (g_lstat (cur, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&cur);
      link = g_file_read_link (cur, NULL);
      if (link == NULL)
        return g_steal_pointer (&cur);
      if (!g_path_is_absolute (link))
        {
          g_autofree char *dir = g_path_get_dirname (cur);
          g_free (cur);
          cur = g_build_filename (dir, link, NULL);
        }
      else
        {
          g_free (cur);
          cur = g_steal_pointer (&link);
        }
    }
  set_errno_error (error, ELOOP, path);
  return NULL;
}

/* The canonical path of a file that may not exist yet: its folder's real
 * path and its name. */
static char *
canonical_target (const char *target)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  char *real = realpath (dir, NULL);
  char *result;

  if (real == NULL)
    return g_canonicalize_filename (target, NULL);
  result = g_build_filename (real, base, NULL);
  free (real);
  return result;
}

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: a descriptor this
 * process already has; -1 for any other name. */
static int
inherited_fd (const char *path)
{
  const char *n = NULL;
  guint64 v;

  if (g_str_equal (path, "/dev/stdout"))
    return STDOUT_FILENO;
  if (g_str_equal (path, "/dev/stderr"))
    return STDERR_FILENO;
  if (g_str_has_prefix (path, "/dev/fd/"))
    n = path + strlen ("/dev/fd/");
  else if (g_str_has_prefix (path, "/proc/self/fd/"))
    n = path + strlen ("/proc/self/fd/");
  if (n == NULL || !g_ascii_string_to_unsigned (n, 10, 0, G_MAXINT, &v, NULL))
    return -1;
  return (int) v;
}

AdbscopeCliOutput *
adbscope_cli_output_prepare (const char  *path,
                             GError     **error)
{
  g_autoptr(AdbscopeCliOutput) self = NULL;
  g_autofree char *dir = NULL;
  GStatBuf st;

  g_return_val_if_fail (path != NULL, NULL);

  if (*path == '\0')
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_USAGE,
                           _("An output file name is empty"));
      return NULL;
    }
  self = output_new (path);
  self->is_link = g_lstat (path, &st) == 0 && S_ISLNK (st.st_mode);

  /* Written through the descriptor itself, as a stream: reopening it by
   * name would need the right to open the file behind it (a file the
   * shell opened for us as another user), and a file behind it is
   * appended to where the shell's descriptor is, never replaced. */
  {
    int fd = inherited_fd (path);
    int flags = fd >= 0 ? fcntl (fd, F_GETFL) : -1;
    struct stat fst;

    if (fd >= 0)
      {
        if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY || fstat (fd, &fst) != 0)
          return set_errno_error (error, flags < 0 ? EBADF : EACCES, path), NULL;
        self->inherited = TRUE;
        self->stream = TRUE;
        self->fd = fd;
        self->exists = TRUE;
        self->dev = fst.st_dev;
        self->ino = fst.st_ino;
        self->mode = fst.st_mode;
        self->target = g_strdup (path);
        return g_steal_pointer (&self);
      }
  }

  if (g_stat (path, &st) == 0)
    {
      self->exists = TRUE;
      self->dev = st.st_dev;
      self->ino = st.st_ino;
      self->mode = st.st_mode;
      if (S_ISDIR (st.st_mode))
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot write %s: it is a folder"), path);
          return NULL;
        }
      if (S_ISSOCK (st.st_mode))
        {
          g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                       _("Cannot write %s: it is a socket"), path);
          return NULL;
        }
      if (access (path, W_OK) != 0)
        return set_errno_error (error, errno, path), NULL;
      if (!S_ISREG (st.st_mode))
        {
          /* A device, pipe or terminal: written in place, never replaced. */
          self->stream = TRUE;
          self->target = g_strdup (path);
          return g_steal_pointer (&self);
        }
      {
        char *real = realpath (path, NULL);

        if (real == NULL)
          return set_errno_error (error, errno, path), NULL;
        self->target = g_strdup (real);
        free (real);
      }
    }
  else if (errno == ENOENT)
    {
      g_autofree char *resolved = resolve_dangling (path, error);

      if (resolved == NULL)
        return NULL;
      self->target = canonical_target (resolved);
    }
  else
    return set_errno_error (error, errno, path), NULL;

  dir = g_path_get_dirname (self->target);
  if (!check_dir_writable (dir, path, error))
    return NULL;
  return g_steal_pointer (&self);
}

AdbscopeCliOutput *
adbscope_cli_output_new_stdout (GError **error)
{
  g_autoptr(AdbscopeCliOutput) self = output_new ("-");
  struct pollfd pfd = { .fd = STDOUT_FILENO, .events = POLLOUT };
  struct stat st;
  int flags = fcntl (STDOUT_FILENO, F_GETFL);

  self->is_stdout = TRUE;
  self->stream = TRUE;
  self->fd = STDOUT_FILENO;
  if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY || fstat (STDOUT_FILENO, &st) != 0)
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                           _("Cannot write the report: standard output is closed"));
      return NULL;
    }
  /* A pipe whose reader has gone: found now, not after the run. */
  if (poll (&pfd, 1, 0) == 1 && (pfd.revents & (POLLERR | POLLHUP | POLLNVAL)))
    {
      g_set_error_literal (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                           _("Cannot write the report: nothing reads standard output"));
      return NULL;
    }
  self->exists = TRUE;
  self->dev = st.st_dev;
  self->ino = st.st_ino;
  self->mode = st.st_mode;
  return g_steal_pointer (&self);
}

const char *
adbscope_cli_output_get_path (AdbscopeCliOutput *self)
{
  return self->path;
}

gboolean
adbscope_cli_output_is_stream (AdbscopeCliOutput *self)
{
  return self->stream;
}

gboolean
adbscope_cli_output_same_file (AdbscopeCliOutput *a,
                               AdbscopeCliOutput *b)
{
  if (a->exists && b->exists)
    /* Character devices (/dev/null, a terminal) are never overwritten. */
    return a->dev == b->dev && a->ino == b->ino && !S_ISCHR (a->mode);
  if (a->exists != b->exists || a->target == NULL || b->target == NULL)
    return FALSE;
  return g_str_equal (a->target, b->target);
}

gboolean
adbscope_cli_output_is_file (AdbscopeCliOutput *self,
                             const char        *path)
{
  GStatBuf st;

  if (path == NULL || g_stat (path, &st) != 0)
    return FALSE;
  if (self->exists)
    return self->dev == st.st_dev && self->ino == st.st_ino && !S_ISCHR (st.st_mode);
  /* An output not made yet is never an existing input, unless a name
   * of it is (a dangling link made since). */
  if (self->target != NULL)
    {
      g_autofree char *canon = canonical_target (path);

      return g_str_equal (canon, self->target);
    }
  return FALSE;
}

gboolean
adbscope_cli_output_is_regular (AdbscopeCliOutput *self)
{
  return !self->stream;
}

gboolean
adbscope_cli_output_is_plain_file (AdbscopeCliOutput *self)
{
  return !self->stream && !self->is_link && !self->is_stdout && !self->inherited;
}

static int
write_fully (int         fd,
             const char *data,
             gsize       len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno;
      if (n == 0)
        return EIO;
      data += n;
      len -= (gsize) n;
    }
  return 0;
}

static gboolean
write_error (AdbscopeCliOutput  *self,
             int                 errsv,
             GError            **error)
{
  return set_errno_error (error, errsv, display_name (self));
}

static gboolean
write_stream (AdbscopeCliOutput  *self,
              const char         *data,
              gsize               len,
              GError            **error)
{
  int fd = self->fd;
  int errsv;

  if (fd < 0)
    {
      fd = open (self->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
      if (fd < 0)
        return write_error (self, errno, error);
    }
  errsv = write_fully (fd, data, len);
  if (fd != self->fd && close (fd) != 0 && errsv == 0)
    errsv = errno;
  if (errsv != 0)
    return write_error (self, errsv, error);
  return TRUE;
}

/* A regular file replaced atomically: @data (may be empty) into a
 * temporary file beside the target, renamed over it.  With @keep_fd the
 * file stays open for appending (in *keep_fd), else it is closed. */
static gboolean
replace_atomic (AdbscopeCliOutput  *self,
                const char         *data,
                gsize               len,
                int                *keep_fd,
                GError            **error)
{
  g_autofree char *dir = g_path_get_dirname (self->target);
  g_autofree char *base = g_path_get_basename (self->target);
  g_autofree char *name = g_strdup_printf (".%s.XXXXXX", base);
  g_autofree char *tmp = g_build_filename (dir, name, NULL);
  mode_t mask = umask (0);
  GStatBuf st;
  int fd, errsv;

  umask (mask);
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    return write_error (self, errno, error);
  errsv = write_fully (fd, data, len);
  if (errsv == 0 && fchmod (fd, self->exists ? (self->mode & 07777) : (0666 & ~mask)) != 0)
    errsv = errno;
  if (errsv == 0 && keep_fd == NULL && fsync (fd) != 0)
    errsv = errno;
  if (keep_fd == NULL && close (fd) != 0 && errsv == 0)
    errsv = errno;
  /* Never replace what became a non-regular file meanwhile. */
  if (errsv == 0 && g_lstat (self->target, &st) == 0 && !S_ISREG (st.st_mode))
    errsv = EEXIST;
  if (errsv == 0 && g_rename (tmp, self->target) != 0)
    errsv = errno;
  if (errsv != 0)
    {
      if (keep_fd != NULL)
        close (fd);
      g_unlink (tmp);
      return write_error (self, errsv, error);
    }
  if (keep_fd != NULL)
    *keep_fd = fd;
  return TRUE;
}

static gboolean
write_atomic (AdbscopeCliOutput  *self,
              const char         *data,
              gsize               len,
              GError            **error)
{
  return replace_atomic (self, data, len, NULL, error);
}

gboolean
adbscope_cli_output_write_all (AdbscopeCliOutput  *self,
                               const char         *data,
                               gsize               len,
                               GError            **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->stream ? write_stream (self, data, len, error) : write_atomic (self, data, len, error);
}

gboolean
adbscope_cli_output_open_stream (AdbscopeCliOutput  *self,
                                 GError            **error)
{
  if (self->inherited)
    return TRUE;
  g_return_val_if_fail (self->fd < 0, FALSE);

  if (!self->stream)
    return replace_atomic (self, "", 0, &self->fd, error);
  self->fd = open (self->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (self->fd < 0)
    return write_error (self, errno, error);
  return TRUE;
}

gboolean
adbscope_cli_output_append (AdbscopeCliOutput  *self,
                            const char         *data,
                            gsize               len,
                            GError            **error)
{
  int errsv;

  g_return_val_if_fail (self->fd >= 0, FALSE);
  errsv = write_fully (self->fd, data, len);
  if (errsv != 0)
    return write_error (self, errsv, error);
  return TRUE;
}

gboolean
adbscope_cli_output_close (AdbscopeCliOutput  *self,
                           GError            **error)
{
  int fd = self->fd;

  self->fd = -1;
  if (fd < 0 || self->is_stdout || self->inherited)
    return TRUE;
  if (close (fd) != 0)
    return write_error (self, errno, error);
  return TRUE;
}

char *
adbscope_cli_output_make_temp (AdbscopeCliOutput  *self,
                               GError            **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  char *tmp;
  int fd;

  if (self->stream)
    return g_strdup (self->path);
  dir = g_path_get_dirname (self->target);
  base = g_path_get_basename (self->target);
  name = g_strdup_printf (".%s.XXXXXX", base);
  tmp = g_build_filename (dir, name, NULL);
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      write_error (self, errno, error);
      g_free (tmp);
      return NULL;
    }
  close (fd);
  return tmp;
}

gboolean
adbscope_cli_output_commit_temp (AdbscopeCliOutput  *self,
                                 const char         *temp,
                                 GError            **error)
{
  mode_t mask = umask (0);
  GStatBuf st;
  int errsv = 0;

  umask (mask);
  if (self->stream)
    return TRUE;
  if (g_chmod (temp, self->exists ? (self->mode & 07777) : (0666 & ~mask)) != 0)
    errsv = errno;
  /* Never replace what became a non-regular file meanwhile. */
  if (errsv == 0 && g_lstat (self->target, &st) == 0 && !S_ISREG (st.st_mode))
    errsv = EEXIST;
  if (errsv == 0 && g_rename (temp, self->target) != 0)
    errsv = errno;
  if (errsv != 0)
    return write_error (self, errsv, error);
  return TRUE;
}

void
adbscope_cli_output_abandon_temp (AdbscopeCliOutput *self,
                                  const char        *temp)
{
  if (!self->stream && temp != NULL)
    g_unlink (temp);
}

gboolean
adbscope_cli_output_write_stdout (const char  *data,
                                  gsize        len,
                                  GError     **error)
{
  int errsv = 0;

  if (fflush (stdout) != 0)
    errsv = errno != 0 ? errno : EIO;
  if (errsv == 0)
    errsv = write_fully (STDOUT_FILENO, data, len);
  if (errsv != 0)
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO,
                   _("Cannot write %s: %s"), _("standard output"), g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

char *
adbscope_cli_output_save_fallback (const char  *data,
                                   gsize        len,
                                   GError     **error)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *dir = g_build_filename (g_get_user_state_dir (), "adbscope", "reports", NULL);
  g_autofree char *name = g_strdup_printf ("record-%s-%d.json", stamp, (int) getpid ());
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) local = NULL;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      set_errno_error (error, errno, dir);
      return NULL;
    }
  if (!g_file_set_contents_full (path, data, (gssize) len, G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local))
    {
      g_set_error (error, ADBSCOPE_ERROR, ADBSCOPE_ERROR_IO, "%s", local->message);
      return NULL;
    }
  return g_steal_pointer (&path);
}
