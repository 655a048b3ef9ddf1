/* A hot loop whose speed depends on where its functions lie: three small functions called
 * in turn, each on its own section (-ffunction-sections), so that a relink in another order
 * moves their alignment and the branch predictor's view of them. Usage: loop N (iterations,
 * 20,000,000 by default); prints one bit so that the work cannot be dropped. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) uint64_t step_a(uint64_t x) {
  return x * 6364136223846793005ULL + 1442695040888963407ULL;
}

__attribute__((noinline)) uint64_t step_b(uint64_t x) {
  return (x ^ (x >> 29)) * 0xbf58476d1ce4e5b9ULL;
}

__attribute__((noinline)) uint64_t mix(uint64_t x, int i) {
  return (i & 1) ? step_a(x) : step_b(x);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20000000;
  uint64_t x = 1;
  for (long i = 0; i < n; i++) {
    x = mix(x, (int)i);
    if (x % 7 == 3) x += step_a(x);
  }
  printf("%llu\n", (unsigned long long)(x & 1));
  return 0;
}
