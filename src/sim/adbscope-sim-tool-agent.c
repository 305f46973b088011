/* adbscope-sim-tool-agent.c: the fake tools' side of installed apps and of
 * the agent app (docs/agent-protocol.md, "Control from the desktop")
 *
 *   pm install [-r] FILE / cmd package install [-r] -S SIZE   reads the APK's
 *        package and versionCode with the core APK reader, as Android does,
 *        and refuses as Android does: minSdk above the device's SDK
 *        (INSTALL_FAILED_OLDER_SDK), another signing certificate than the
 *        installed one's (INSTALL_FAILED_UPDATE_INCOMPATIBLE), a lower
 *        versionCode, and the fault `adbscope sim --install-fault` set
 *   pm grant PKG PERMISSION                                   recorded
 *   pm uninstall PKG                                          Success
 *   dumpsys package PKG                 the Packages: section with versionCode
 *   am start -n io.github.adbscope.agent/.ControlActivity -e package PKG | -e stop 1
 *   dumpsys activity service io.github.adbscope.agent/.AgentVpnService
 *        the agent's state line, kept by the device in SANDBOX/state/agent
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "adbscope-apk.h"
#include "adbscope-apk-sig.h"
#include "adbscope-sim-private.h"

#define AGENT_PACKAGE    "io.github.adbscope.agent"
#define AGENT_ACTIVITY   AGENT_PACKAGE "/.ControlActivity"
#define AGENT_SERVICE    AGENT_PACKAGE "/.AgentVpnService"

typedef struct
{
  gint64  version_code;
  char   *version_name;
  int     min_sdk;
  int     target_sdk;
  char   *signer;      /* SHA-256 of the signing certificate, or NULL */
  GPtrArray *granted;  /* permissions `pm grant` gave */
} Installed;

static void
installed_clear (Installed *info)
{
  g_clear_pointer (&info->version_name, g_free);
  g_clear_pointer (&info->signer, g_free);
  g_clear_pointer (&info->granted, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Installed, installed_clear)

static gboolean
package_name_ok (const char *package)
{
  if (package == NULL || *package == '\0' || strlen (package) > 200 || package[0] == '.')
    return FALSE;
  for (const char *p = package; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '_')
      return FALSE;
  return TRUE;
}

static gboolean
read_installed (const char *sandbox,
                const char *package,
                Installed  *info)
{
  g_autofree char *dir = adbscope_sim_packages_dir (sandbox);
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!package_name_ok (package))
    return FALSE;
  path = g_build_filename (dir, package, NULL);
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "versionCode="))
        info->version_code = g_ascii_strtoll (lines[i] + 12, NULL, 10);
      else if (g_str_has_prefix (lines[i], "versionName="))
        info->version_name = g_strdup (lines[i] + 12);
      else if (g_str_has_prefix (lines[i], "minSdk="))
        info->min_sdk = (int) g_ascii_strtoll (lines[i] + 7, NULL, 10);
      else if (g_str_has_prefix (lines[i], "targetSdk="))
        info->target_sdk = (int) g_ascii_strtoll (lines[i] + 10, NULL, 10);
      else if (g_str_has_prefix (lines[i], "signer=") && info->signer == NULL)
        info->signer = g_strdup (lines[i] + 7);
      else if (g_str_has_prefix (lines[i], "granted="))
        {
          if (info->granted == NULL)
            info->granted = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (info->granted, g_strdup (lines[i] + 8));
        }
    }
  return TRUE;
}

/* Appends a line to the package's file. */
static gboolean
append_line (const char *sandbox,
             const char *package,
             const char *line)
{
  g_autofree char *dir = adbscope_sim_packages_dir (sandbox);
  g_autofree char *path = g_build_filename (dir, package, NULL);
  g_autofree char *text = NULL;
  g_autofree char *joined = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return FALSE;
  joined = g_strconcat (text, line, "\n", NULL);
  return g_file_set_contents (path, joined, -1, NULL);
}

GPtrArray *
adbscope_sim_tool_installed_packages (const char *sandbox)
{
  g_autofree char *dir_path = adbscope_sim_packages_dir (sandbox);
  GPtrArray *list = g_ptr_array_new_with_free_func (g_free);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (package_name_ok (name))
      g_ptr_array_add (list, g_strdup (name));
  if (dir != NULL)
    g_dir_close (dir);
  g_ptr_array_sort (list, (GCompareFunc) g_strcmp0);
  return list;
}

gboolean
adbscope_sim_tool_package_installed (const char *sandbox,
                                     const char *package)
{
  g_auto(Installed) info = { 0 };

  return read_installed (sandbox, package, &info);
}

/* ---- dumpsys ----------------------------------------------------------- */

/* As Android prints it (only the lines anyone reads). */
int
adbscope_sim_tool_dumpsys_package (const char *sandbox,
                                   int         argc,
                                   char      **argv)
{
  g_auto(Installed) info = { 0 };
  const char *package = argc >= 1 ? argv[argc - 1] : NULL;

  if (package == NULL || !read_installed (sandbox, package, &info))
    {
      /* Android prints its header and no Packages: section. */
      printf ("Activity Resolver Table:\n  Non-Data Actions:\n\n");
      return 0;
    }
  printf ("Activity Resolver Table:\n"
          "  Non-Data Actions:\n"
          "      android.intent.action.MAIN:\n"
          "        1a2b3c4 %s/.ControlActivity\n"
          "\n"
          "Key Set Manager:\n"
          "  [%s]\n"
          "      Signing KeySets: 12\n"
          "\n"
          "Packages:\n"
          "  Package [%s] (5d6e7f8):\n"
          "    userId=10230\n"
          "    pkg=Package{9a8b7c6 %s}\n"
          "    codePath=/data/app/~~AbCdEf==/%s-GhIjKl==\n"
          "    resourcePath=/data/app/~~AbCdEf==/%s-GhIjKl==\n"
          "    primaryCpuAbi=null\n"
          "    versionCode=%" G_GINT64_FORMAT " minSdk=%d targetSdk=%d\n"
          "    minExtensionVersion=\n"
          "    versionName=%s\n"
          "    usesNonSdkApi=false\n"
          "    flags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]\n"
          "    timeStamp=2026-01-01 00:00:00\n"
          "    lastUpdateTime=2026-01-01 00:00:00\n"
          "    installerPackageName=null\n",
          package, package, package, package, package, package, info.version_code,
          info.min_sdk, info.target_sdk, info.version_name != NULL ? info.version_name : "");
  if (info.signer != NULL)
    printf ("    signatures=PackageSignatures{7c8d9e0 version:3, signatures:[%.8s], past signatures:[]}\n",
            info.signer);
  if (info.granted != NULL && info.granted->len > 0)
    {
      printf ("    runtime permissions:\n");
      for (guint i = 0; i < info.granted->len; i++)
        printf ("      %s: granted=true\n", (char *) info.granted->pdata[i]);
    }
  printf ("\n");
  return 0;
}

int
adbscope_sim_tool_dumpsys_activity (const char *sandbox,
                                    int         argc,
                                    char      **argv)
{
  g_autofree char *path = g_build_filename (sandbox, "state", "agent", NULL);
  g_autofree char *line = NULL;
  const char *name = argc >= 2 && g_str_equal (argv[0], "service") ? argv[1] : NULL;

  if (name == NULL)
    {
      printf ("ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n");
      return 0;
    }
  if ((!g_str_equal (name, AGENT_SERVICE) && !g_str_equal (name, AGENT_PACKAGE)) ||
      !adbscope_sim_tool_package_installed (sandbox, AGENT_PACKAGE) ||
      !g_file_get_contents (path, &line, NULL, NULL))
    {
      printf ("No services match: %s\n\nUse -h for help.\n", name);
      return 0;
    }
  printf ("SERVICE %s 4e5f6a7 pid=%d user=0\n  Client:\n%s", AGENT_SERVICE, (int) getppid (), line);
  return 0;
}

/* ---- am start of the ControlActivity ----------------------------------- */

/* -1 when COMPONENT is not the agent's. */
int
adbscope_sim_tool_am_start_agent (const char *sandbox,
                                  const char *component,
                                  int         argc,
                                  char      **argv)
{
  g_auto(Installed) info = { 0 };
  g_autofree char *reply = NULL;
  const char *package = NULL, *token = NULL, *selftest = NULL;
  gboolean stop = FALSE, extras = FALSE;

  if (!g_str_has_prefix (component, AGENT_PACKAGE "/"))
    return -1;
  for (int i = 0; i < argc; i++)
    if ((g_str_equal (argv[i], "-e") || g_str_equal (argv[i], "--es")) && i + 2 < argc)
      {
        extras = TRUE;
        if (g_str_equal (argv[i + 1], "package"))
          package = argv[i + 2];
        else if (g_str_equal (argv[i + 1], "token"))
          token = argv[i + 2];
        else if (g_str_equal (argv[i + 1], "selftest"))
          selftest = argv[i + 2];
        else if (g_str_equal (argv[i + 1], "stop"))
          stop = g_str_equal (argv[i + 2], "1") || g_str_equal (argv[i + 2], "true");
        i += 2;
      }
  printf ("Starting: Intent { cmp=%s%s }\n", component, extras ? " (has extras)" : "");
  if (!g_str_equal (component, AGENT_ACTIVITY) ||
      !read_installed (sandbox, AGENT_PACKAGE, &info))
    {
      printf ("Error type 3\nError: Activity class {%s/%s.ControlActivity} does not exist.\n",
              AGENT_PACKAGE, AGENT_PACKAGE);
      return 1;
    }
  if (stop)
    reply = adbscope_sim_tool_control (sandbox, "agent-stop");
  else if (package != NULL && package_name_ok (package))
    {
      /* the token is one word of [A-Za-z0-9] (else dropped, as a phone's
       * agent would ignore a malformed extra) */
      gboolean token_ok = token != NULL && *token != '\0' && strlen (token) <= 64;
      gboolean selftest_ok = selftest != NULL && *selftest != '\0' && strlen (selftest) <= 200;
      g_autofree char *line = NULL;

      for (const char *p = token; token_ok && *p; p++)
        token_ok = g_ascii_isalnum (*p);
      for (const char *p = selftest; selftest_ok && *p; p++)
        selftest_ok = g_ascii_isalnum (*p) || strchr (".-_:[]", *p) != NULL;
      line = g_strdup_printf ("agent-start %s %" G_GINT64_FORMAT "%s%s%s%s", package, info.version_code,
                              token_ok ? " token=" : "", token_ok ? token : "",
                              selftest_ok ? " selftest=" : "", selftest_ok ? selftest : "");

      reply = adbscope_sim_tool_control (sandbox, line);
    }
  else
    {
      /* The activity opens and finishes: nothing to capture. */
      return 0;
    }
  if (!g_str_has_prefix (reply, "ok"))
    {
      fprintf (stderr, "Error: %s\n", reply);
      return 1;
    }
  return 0;
}

/* ---- the agent's selftest traffic -------------------------------------- */

static void
dns_put_name (GByteArray *q,
              const char *name)
{
  g_auto(GStrv) labels = g_strsplit (name, ".", -1);

  for (guint i = 0; labels[i] != NULL; i++)
    {
      guint8 len = (guint8) MIN (strlen (labels[i]), 63);

      if (len == 0)
        continue;
      g_byte_array_append (q, &len, 1);
      g_byte_array_append (q, (const guint8 *) labels[i], len);
    }
  g_byte_array_append (q, (const guint8 *) "\0\0\1\0\1", 5);   /* end, A, IN */
}

/* The first A record of a response, or a reason. */
static const char *
dns_first_a (const guint8 *r,
             gsize         n,
             guint16       id,
             guint8        addr[4])
{
  gsize pos = 12;
  guint qd, an;

  if (n < 12 || ((r[0] << 8) | r[1]) != id || !(r[2] & 0x80))
    return "dns_bad_answer";
  if ((r[3] & 0x0f) == 3)
    return "dns_nxdomain";
  if ((r[3] & 0x0f) != 0)
    return "dns_servfail";
  qd = (r[4] << 8) | r[5];
  an = (r[6] << 8) | r[7];
  for (guint i = 0; i < qd; i++)
    {
      while (pos < n && r[pos] != 0 && (r[pos] & 0xc0) != 0xc0)
        pos += 1 + r[pos];
      pos += (pos < n && (r[pos] & 0xc0) == 0xc0) ? 2 : 1;
      pos += 4;
    }
  for (guint i = 0; i < an && pos < n; i++)
    {
      guint type, rdlen;

      while (pos < n && r[pos] != 0 && (r[pos] & 0xc0) != 0xc0)
        pos += 1 + r[pos];
      pos += (pos < n && (r[pos] & 0xc0) == 0xc0) ? 2 : 1;
      if (pos + 10 > n)
        break;
      type = (r[pos] << 8) | r[pos + 1];
      rdlen = (r[pos + 8] << 8) | r[pos + 9];
      pos += 10;
      if (pos + rdlen > n)
        break;
      if (type == 1 && rdlen == 4)
        {
          memcpy (addr, r + pos, 4);
          return NULL;
        }
      pos += rdlen;
    }
  return "dns_no_address";
}

/* `sim-tool selftest-client HOST:PORT`, run by the device in the apps'
 * namespace for the agent's `-e selftest`: one lookup through the agent's
 * resolver, one TCP connection and a small HTTP request.  Prints `ok` or
 * `fail:WHY`, as the phone's agent reports it. */
int
adbscope_sim_tool_selftest_client (int    argc,
                                   char **argv)
{
  const char *colon = argc >= 2 ? strrchr (argv[1], ':') : NULL;
  g_autofree char *host = colon ? g_strndup (argv[1], colon - argv[1]) : NULL;
  guint64 port = 0;
  g_autoptr(GByteArray) q = g_byte_array_new ();
  guint16 id = (guint16) g_random_int_range (1, 65535);
  guint8 hdr[12] = { id >> 8, id & 0xff, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0 };
  struct sockaddr_in dns = { 0 }, dst = { 0 };
  guint8 addr[4] = { 0 };
  const char *why = "dns_timeout";
  int fd;

  if (host == NULL || !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
    {
      printf ("fail:bad_target\n");
      return 1;
    }
  g_byte_array_append (q, hdr, sizeof hdr);
  dns_put_name (q, host);
  dns.sin_family = AF_INET;
  dns.sin_port = htons (53);
  inet_pton (AF_INET, "10.215.173.2", &dns.sin_addr);
  fd = socket (AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  for (int attempt = 0; attempt < 3 && why != NULL; attempt++)
    {
      struct timeval tv = { 2, 0 };
      guint8 r[1500];
      ssize_t n;

      setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      if (sendto (fd, q->data, q->len, 0, (struct sockaddr *) &dns, sizeof dns) < 0)
        {
          why = "dns_send";
          break;
        }
      n = recv (fd, r, sizeof r, 0);
      if (n > 0)
        why = dns_first_a (r, (gsize) n, id, addr);
    }
  close (fd);
  if (why != NULL)
    {
      printf ("fail:%s\n", why);
      return 1;
    }
  dst.sin_family = AF_INET;
  dst.sin_port = htons ((guint16) port);
  memcpy (&dst.sin_addr, addr, 4);
  fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  {
    struct timeval tv = { 8, 0 };
    g_autofree char *req = g_strdup_printf ("HEAD / HTTP/1.0\r\nHost: %s\r\n\r\n", host);
    char buf[512];

    setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    if (connect (fd, (struct sockaddr *) &dst, sizeof dst) < 0)
      {
        int err = errno;

        printf ("fail:connect_%s\n", err == ECONNREFUSED ? "refused" : err == ETIMEDOUT || err == EINPROGRESS
                                                                      ? "timeout" : "error");
        close (fd);
        return 1;
      }
    if (write (fd, req, strlen (req)) < 0 || read (fd, buf, sizeof buf) < 0)
      {
        printf ("fail:tcp_io\n");
        close (fd);
        return 1;
      }
  }
  close (fd);
  printf ("ok\n");
  return 0;
}

/* ---- pm uninstall ------------------------------------------------------ */

int
adbscope_sim_tool_package_uninstall (const char *sandbox,
                                     const char *package)
{
  g_autofree char *dir = adbscope_sim_packages_dir (sandbox);
  g_autofree char *path = NULL;
  g_autofree char *apk_dir = NULL;
  g_autofree char *apk = NULL;

  if (!adbscope_sim_tool_package_installed (sandbox, package))
    {
      printf ("Failure [DELETE_FAILED_INTERNAL_ERROR]\n");
      return 1;
    }
  if (g_str_equal (package, AGENT_PACKAGE))
    {
      g_autofree char *state = g_build_filename (sandbox, "state", "agent", NULL);
      g_autofree char *reply = adbscope_sim_tool_control (sandbox, "agent-stop");

      (void) reply;
      g_unlink (state);
    }
  path = g_build_filename (dir, package, NULL);
  apk_dir = g_build_filename (sandbox, "root", "data", "app", package, NULL);
  apk = g_build_filename (apk_dir, "base.apk", NULL);
  g_unlink (apk);
  g_rmdir (apk_dir);
  if (g_unlink (path) != 0)
    {
      printf ("Failure [DELETE_FAILED_INTERNAL_ERROR: %s]\n", g_strerror (errno));
      return 1;
    }
  printf ("Success\n");
  return 0;
}

/* ---- pm grant ---------------------------------------------------------- */

int
adbscope_sim_tool_package_grant (const char *sandbox,
                                 int         sdk,
                                 const char *package,
                                 const char *permission)
{
  g_auto(Installed) info = { 0 };

  if (!read_installed (sandbox, package, &info))
    {
      fprintf (stderr, "Exception occurred while executing 'grant':\n"
               "java.lang.IllegalArgumentException: Unknown package: %s\n", package);
      return 255;
    }
  /* POST_NOTIFICATIONS exists from Android 13 (API 33) */
  if (g_str_equal (permission, "android.permission.POST_NOTIFICATIONS") && sdk < 33)
    {
      fprintf (stderr, "Exception occurred while executing 'grant':\n"
               "java.lang.IllegalArgumentException: Unknown permission: %s\n", permission);
      return 255;
    }
  for (guint i = 0; info.granted != NULL && i < info.granted->len; i++)
    if (g_str_equal (info.granted->pdata[i], permission))
      return 0;
  {
    g_autofree char *line = g_strdup_printf ("granted=%s", permission);

    append_line (sandbox, package, line);
  }
  return 0;
}

/* ---- pm install -------------------------------------------------------- */

/* An absolute device path in the sandbox's root; a relative one from the
 * shell's cwd (which is that root). */
static char *
device_path (const char *sandbox,
             const char *path)
{
  g_autofree char *root = g_build_filename (sandbox, "root", NULL);
  g_autofree char *joined = g_build_filename (root, path, NULL);
  g_autofree char *canon = g_canonicalize_filename (joined, NULL);

  if (!g_str_has_prefix (canon, root))
    return NULL;
  return g_steal_pointer (&canon);
}

static gboolean
copy_stdin (const char *dest,
            gint64      size,
            GError    **error)
{
  FILE *out = fopen (dest, "wb");
  gint64 got = 0;
  char buf[65536];

  if (out == NULL)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno), "%s: %s", dest, g_strerror (errno));
      return FALSE;
    }
  while (got < size)
    {
      ssize_t n = read (0, buf, MIN ((gint64) sizeof buf, size - got));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      fwrite (buf, 1, (size_t) n, out);
      got += n;
    }
  if (fclose (out) != 0 || got != size)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO,
                   "short read %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT, got, size);
      return FALSE;
    }
  return TRUE;
}

/* `pm install [-r] [-d] FILE` and `cmd package install [-r] [-d] -S SIZE`
 * (the streamed install `adb install` runs): package and versionCode come
 * from the APK's AndroidManifest.xml, as Android reads them. */
/* `adbscope sim --install-fault`: the failure every install prints, as
 * Android prints it; NULL when none was set. */
static char *
install_fault (const char *sandbox)
{
  g_autofree char *path = g_build_filename (sandbox, "state", "install-fault", NULL);
  g_autofree char *fault = NULL;

  if (!g_file_get_contents (path, &fault, NULL, NULL))
    return NULL;
  g_strstrip (fault);
  if (g_str_equal (fault, "storage"))
    return g_strdup ("Failure [INSTALL_FAILED_INSUFFICIENT_STORAGE]");
  if (g_str_equal (fault, "aborted"))
    return g_strdup ("Failure [INSTALL_FAILED_ABORTED: User rejected permissions]");
  if (g_str_equal (fault, "user-restricted"))
    return g_strdup ("Failure [INSTALL_FAILED_USER_RESTRICTED: Install canceled by user]");
  return NULL;
}

int
adbscope_sim_tool_package_install (const char *sandbox,
                                   int         sdk,
                                   int         argc,
                                   char      **argv)
{
  g_autofree char *fault = NULL;
  g_autofree char *signer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(AdbscopeApkManifest) manifest = NULL;
  g_auto(Installed) old = { 0 };
  g_autofree char *tmp_dir = g_build_filename (sandbox, "tmp", NULL);
  g_autofree char *staged = NULL;
  g_autofree char *apk_dir = NULL;
  g_autofree char *apk = NULL;
  const char *file = NULL;
  gboolean replace = FALSE, downgrade = FALSE;
  gint64 size = -1;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "-S") && i + 1 < argc)
        size = g_ascii_strtoll (argv[++i], NULL, 10);
      else if (g_str_equal (argv[i], "-r"))
        replace = TRUE;
      else if (g_str_equal (argv[i], "-d"))
        downgrade = TRUE;
      else if (argv[i][0] != '-')
        file = argv[i];
    }
  g_mkdir_with_parents (tmp_dir, 0700);
  staged = g_strdup_printf ("%s/install-%d.apk", tmp_dir, (int) getpid ());
  if (size >= 0)
    {
      if (!copy_stdin (staged, size, &error))
        {
          g_unlink (staged);
          printf ("Failure [INSTALL_FAILED_INVALID_APK: %s]\n", error->message);
          return 1;
        }
    }
  else if (file != NULL)
    {
      g_autofree char *path = device_path (sandbox, file);
      g_autofree char *contents = NULL;
      gsize len = 0;

      if (path == NULL || !g_file_get_contents (path, &contents, &len, NULL) ||
          !g_file_set_contents (staged, contents, (gssize) len, &error))
        {
          printf ("Failure [INSTALL_FAILED_INVALID_URI: %s]\n", file);
          return 1;
        }
    }
  else
    {
      fprintf (stderr, "usage: pm install [-r] [-d] FILE | cmd package install [-r] [-d] -S SIZE\n");
      return 1;
    }

  manifest = adbscope_apk_read_manifest (staged, &error);
  if (manifest == NULL || manifest->package == NULL || !package_name_ok (manifest->package))
    {
      g_unlink (staged);
      printf ("Failure [INSTALL_PARSE_FAILED_NOT_APK: %s]\n",
              error != NULL ? error->message : "no package name in the manifest");
      return 1;
    }
  if ((fault = install_fault (sandbox)) != NULL)
    {
      g_unlink (staged);
      printf ("%s\n", fault);
      return 1;
    }
  if (manifest->min_sdk > sdk)
    {
      g_unlink (staged);
      printf ("Failure [INSTALL_FAILED_OLDER_SDK: Failed parse during installPackageLI: "
              "/data/app/vmdl%d.tmp/base.apk (at Binary XML file line #7): "
              "Requires newer sdk version #%d (current version is #%d)]\n",
              (int) getpid (), manifest->min_sdk, sdk);
      return 1;
    }
  /* An APK without a v2/v3 signature (aapt's unsigned test APKs) is taken
   * as it is here; Android would refuse it (INSTALL_PARSE_FAILED_NO_CERTIFICATES). */
  signer = adbscope_apk_file_signer_sha256 (staged, NULL);
  if (read_installed (sandbox, manifest->package, &old))
    {
      if (!replace)
        {
          g_unlink (staged);
          printf ("Failure [INSTALL_FAILED_ALREADY_EXISTS: Attempt to re-install %s without first uninstalling.]\n",
                  manifest->package);
          return 1;
        }
      if (manifest->version_code < old.version_code && !downgrade)
        {
          g_unlink (staged);
          printf ("Failure [INSTALL_FAILED_VERSION_DOWNGRADE: Package Verification Result]\n");
          return 1;
        }
      if (old.signer != NULL && g_strcmp0 (old.signer, signer) != 0)
        {
          g_unlink (staged);
          printf ("Failure [INSTALL_FAILED_UPDATE_INCOMPATIBLE: Package %s signatures do not match "
                  "previously installed version; ignoring!]\n", manifest->package);
          return 1;
        }
    }
  apk_dir = g_build_filename (sandbox, "root", "data", "app", manifest->package, NULL);
  apk = g_build_filename (apk_dir, "base.apk", NULL);
  g_mkdir_with_parents (apk_dir, 0755);
  if (g_rename (staged, apk) != 0 ||
      !adbscope_sim_packages_record (sandbox, manifest->package, MAX (manifest->version_code, 0),
                                     manifest->version_name,
                                     /* Android's defaults when the manifest says nothing */
                                     manifest->min_sdk >= 0 ? manifest->min_sdk : 1,
                                     manifest->target_sdk >= 0 ? manifest->target_sdk
                                                               : MAX (manifest->min_sdk, 1), &error))
    {
      g_unlink (staged);
      printf ("Failure [INSTALL_FAILED_INTERNAL_ERROR: %s]\n",
              error != NULL ? error->message : g_strerror (errno));
      return 1;
    }
  if (signer != NULL)
    {
      g_autofree char *line = g_strdup_printf ("signer=%s", signer);

      append_line (sandbox, manifest->package, line);
    }
  /* An update keeps the permissions granted before (same signer). */
  for (guint i = 0; old.granted != NULL && i < old.granted->len; i++)
    {
      g_autofree char *line = g_strdup_printf ("granted=%s", (char *) old.granted->pdata[i]);

      append_line (sandbox, manifest->package, line);
    }
  printf ("Success\n");
  return 0;
}
