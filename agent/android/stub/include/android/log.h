/* Stub of the NDK's <android/log.h>: only what agent-jni.c uses, with the
 * NDK's declarations and values (for the compile check in
 * agent/android/check-android.py; never linked into anything). */
#pragma once

typedef enum android_LogPriority {
  ANDROID_LOG_UNKNOWN = 0,
  ANDROID_LOG_DEFAULT,
  ANDROID_LOG_VERBOSE,
  ANDROID_LOG_DEBUG,
  ANDROID_LOG_INFO,
  ANDROID_LOG_WARN,
  ANDROID_LOG_ERROR,
  ANDROID_LOG_FATAL,
  ANDROID_LOG_SILENT,
} android_LogPriority;

int __android_log_write (int prio, const char *tag, const char *text);

int __android_log_print (int prio, const char *tag, const char *fmt, ...)
  __attribute__ ((__format__ (printf, 3, 4)));
