/* agent-jni.c: the engine inside AgentVpnService.  nativeRun() runs the
 * engine loop on the Java thread that calls it; the callbacks come on that
 * same thread, so they use its JNIEnv.  DNS answers arrive on another
 * thread and are passed on only while their engine is still running. */
#include <jni.h>
#include <android/log.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adbscope-agent-engine.h"

#define TAG "adbscope-agent"

typedef struct {
  JNIEnv   *env;
  jobject   service;
  jmethodID protect;
  jmethodID owner_uid;
  jmethodID resolve;
} Glue;

static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;
static AdbscopeAgentEngine *current;

static int
cb_protect (void *user_data,
            int   fd)
{
  Glue *g = user_data;

  return (*g->env)->CallBooleanMethod (g->env, g->service, g->protect, fd) ? 0 : -1;
}

static jbyteArray
address (JNIEnv        *env,
         const uint8_t *addr,
         int            ip_version)
{
  jsize n = ip_version == 4 ? 4 : 16;
  jbyteArray a = (*env)->NewByteArray (env, n);

  if (a)
    (*env)->SetByteArrayRegion (env, a, 0, n, (const jbyte *) addr);
  return a;
}

static int
cb_get_uid (void                       *user_data,
            const AdbscopeAgentFlowKey *key)
{
  Glue *g = user_data;
  JNIEnv *env = g->env;
  jbyteArray src = address (env, key->src, key->ip_version);
  jbyteArray dst = address (env, key->dst, key->ip_version);
  jint uid = -1;

  if (src && dst)
    uid = (*env)->CallIntMethod (env, g->service, g->owner_uid, (jint) key->protocol, src,
                                 (jint) key->sport, dst, (jint) key->dport);
  if ((*env)->ExceptionCheck (env))
    {
      (*env)->ExceptionClear (env);
      uid = -1;
    }
  (*env)->DeleteLocalRef (env, src);
  (*env)->DeleteLocalRef (env, dst);
  return uid;
}

static void
cb_resolve (void                *user_data,
            AdbscopeAgentEngine *engine,
            uint64_t             id,
            const uint8_t       *query,
            size_t               len)
{
  Glue *g = user_data;
  JNIEnv *env = g->env;
  jbyteArray q = (*env)->NewByteArray (env, (jsize) len);

  if (q == NULL)
    {
      adbscope_agent_engine_dns_answer (engine, id, NULL, 0);
      return;
    }
  (*env)->SetByteArrayRegion (env, q, 0, (jsize) len, (const jbyte *) query);
  (*env)->CallVoidMethod (env, g->service, g->resolve, (jlong) (intptr_t) engine, (jlong) id, q);
  if ((*env)->ExceptionCheck (env))
    {
      (*env)->ExceptionClear (env);
      adbscope_agent_engine_dns_answer (engine, id, NULL, 0);
    }
  (*env)->DeleteLocalRef (env, q);
}

static void
cb_log (void                 *user_data,
        AdbscopeAgentLogLevel level,
        const char           *message)
{
  static const int prio[] = { ANDROID_LOG_DEBUG, ANDROID_LOG_INFO, ANDROID_LOG_WARN,
                              ANDROID_LOG_ERROR };

  __android_log_write (prio[level], TAG, message);
}

JNIEXPORT void JNICALL
Java_io_github_adbscope_agent_AgentVpnService_nativeRun (JNIEnv    *env,
                                                         jobject    service,
                                                         jint       tun_fd,
                                                         jint       mtu,
                                                         jstring    socket_name,
                                                         jintArray  allowed_uids)
{
  jclass cls = (*env)->GetObjectClass (env, service);
  AdbscopeAgentConfig config;
  AdbscopeAgentCallbacks cb;
  Glue glue;
  char pcap_name[128], error[256];
  const char *name = (*env)->GetStringUTFChars (env, socket_name, NULL);
  jsize n_uids = (*env)->GetArrayLength (env, allowed_uids);
  jint *uids = (*env)->GetIntArrayElements (env, allowed_uids, NULL);
  unsigned int *u = calloc ((size_t) n_uids + 1, sizeof *u);
  AdbscopeAgentEngine *engine;
  jsize i;

  if (name == NULL || uids == NULL || u == NULL)
    {
      /* Out of memory (a pending OutOfMemoryError for the first two). */
      __android_log_print (ANDROID_LOG_ERROR, TAG, "cannot start: out of memory");
      if (name)
        (*env)->ReleaseStringUTFChars (env, socket_name, name);
      if (uids)
        (*env)->ReleaseIntArrayElements (env, allowed_uids, uids, JNI_ABORT);
      free (u);
      return;
    }

  glue.env = env;
  glue.service = service;
  glue.protect = (*env)->GetMethodID (env, cls, "protectSocket", "(I)Z");
  glue.owner_uid = (*env)->GetMethodID (env, cls, "ownerUid", "(I[BI[BI)I");
  glue.resolve = (*env)->GetMethodID (env, cls, "resolve", "(JJ[B)V");

  for (i = 0; i < n_uids; i++)
    u[i] = (unsigned int) uids[i];
  adbscope_agent_config_init (&config);
  config.tun_fd = tun_fd;
  config.mtu = mtu;
  /* 10.215.173.2 is the default; the IPv6 resolver matches the Builder. */
  config.have_dns6 = 1;
  {
    static const uint8_t dns6[16] = { 0xfd, 0x00, 0xad, 0xb5, [15] = 2 };

    memcpy (config.dns6, dns6, 16);
  }
  snprintf (pcap_name, sizeof pcap_name, "%s-pcap", name);
  config.socket_name = name;
  config.pcap_socket_name = pcap_name;
  config.allowed_uids = u;
  config.n_allowed_uids = (size_t) n_uids;
  config.platform = "android";
  /* the app's first connections come before the desktop's pcap client */
  config.pcap_from_start_ms = AGENT_PCAP_FROM_START_MS;
  config.agent_version = "0.1.0";

  memset (&cb, 0, sizeof cb);
  cb.user_data = &glue;
  cb.protect_socket = cb_protect;
  cb.get_uid = cb_get_uid;
  cb.resolve_dns = cb_resolve;
  cb.log = cb_log;

  engine = adbscope_agent_engine_new (&config, &cb, error, sizeof error);
  (*env)->ReleaseStringUTFChars (env, socket_name, name);
  (*env)->ReleaseIntArrayElements (env, allowed_uids, uids, JNI_ABORT);
  free (u);
  if (engine == NULL)
    {
      __android_log_print (ANDROID_LOG_ERROR, TAG, "cannot start: %s", error);
      return;
    }
  pthread_mutex_lock (&current_lock);
  current = engine;
  pthread_mutex_unlock (&current_lock);
  (*env)->CallVoidMethod (env, service,
                          (*env)->GetMethodID (env, cls, "onEngineStarted", "(J)V"),
                          (jlong) (intptr_t) engine);

  adbscope_agent_engine_run (engine);

  pthread_mutex_lock (&current_lock);
  current = NULL;
  pthread_mutex_unlock (&current_lock);
  adbscope_agent_engine_free (engine);
}

JNIEXPORT void JNICALL
Java_io_github_adbscope_agent_AgentVpnService_nativeStop (JNIEnv *env,
                                                          jclass  cls,
                                                          jlong   handle)
{
  pthread_mutex_lock (&current_lock);
  if (current != NULL && current == (AdbscopeAgentEngine *) (intptr_t) handle)
    adbscope_agent_engine_stop (current);
  pthread_mutex_unlock (&current_lock);
}

JNIEXPORT void JNICALL
Java_io_github_adbscope_agent_AgentVpnService_nativeDnsAnswer (JNIEnv     *env,
                                                               jclass      cls,
                                                               jlong       handle,
                                                               jlong       query_id,
                                                               jbyteArray  answer)
{
  jbyte *bytes = answer ? (*env)->GetByteArrayElements (env, answer, NULL) : NULL;
  jsize len = answer ? (*env)->GetArrayLength (env, answer) : 0;

  /* Under the lock, so the engine cannot be freed in between. */
  pthread_mutex_lock (&current_lock);
  if (current != NULL && current == (AdbscopeAgentEngine *) (intptr_t) handle)
    adbscope_agent_engine_dns_answer (current, (uint64_t) query_id, (const uint8_t *) bytes,
                                      (size_t) len);
  pthread_mutex_unlock (&current_lock);
  if (bytes)
    (*env)->ReleaseByteArrayElements (env, answer, bytes, JNI_ABORT);
}
