/* Entry points that Rust's ThreadSanitizer instrumentation (LLVM) calls for the memory
 * copies it cannot inline, and that gcc's older libtsan does not export. Each forwards to
 * the C library function, which libtsan intercepts, so the copy is still checked for races.
 * Linked only into the TSan build of the thread test (scripts/sanitize.sh). */
#include <stddef.h>
#include <string.h>

void *__tsan_memcpy(void *dst, const void *src, size_t n);
void *__tsan_memmove(void *dst, const void *src, size_t n);
void *__tsan_memset(void *dst, int c, size_t n);

void *__tsan_memcpy(void *dst, const void *src, size_t n)
{
    return memcpy(dst, src, n);
}

void *__tsan_memmove(void *dst, const void *src, size_t n)
{
    return memmove(dst, src, n);
}

void *__tsan_memset(void *dst, int c, size_t n)
{
    return memset(dst, c, n);
}
