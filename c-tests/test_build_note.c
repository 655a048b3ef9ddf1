/* The header's picollo_bench_config_default() (a macro for an inline function of this
 * translation unit) says whether this file was compiled with optimization: c-tests/run.sh
 * compiles it at -O0 and at -O2 and runs both; each checks its own build. */
#include <stdio.h>
#include <string.h>

#include <picollo.h>

int main(void)
{
    picollo_bench_config c = picollo_bench_config_default();
    picollo_bench_config library = (picollo_bench_config_default)();
#ifdef __OPTIMIZE__
    int ok = c.unoptimized == NULL;
    const char *build = "optimized";
#else
    int ok = c.unoptimized != NULL && strstr(c.unoptimized, "__OPTIMIZE__ undefined") != NULL;
    const char *build = "unoptimized";
#endif
    /* The library's own default knows nothing of its caller; the rest is the same. */
    ok = ok && library.unoptimized == NULL && library.samples == c.samples &&
         library.struct_size == c.struct_size;
    printf("test_build_note (%s): unoptimized = %s\n", build, c.unoptimized ? c.unoptimized : "NULL");
    printf("%d passed, %d failed\n", ok, !ok);
    return ok ? 0 : 1;
}
