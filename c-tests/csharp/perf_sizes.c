/* Prints the C layout of the perf and bench structs the C# binding mirrors, in the format PerfTests.cs
 * prints from Marshal.SizeOf/OffsetOf; run.sh requires the two lines to be identical. */
#include <stddef.h>
#include <stdio.h>

#include "picollo.h"

int main(void)
{
    printf("perf struct sizes: config=%zu reading=%zu delta=%zu values=%zu derived=%zu info=%zu "
           "scope=%zu config.relative_error@%zu values.overhead_syscall@%zu info.rdpmc@%zu "
           "scope.unit@%zu bench_config=%zu bench_config.time_budget@%zu bench_config.baseline@%zu "
           "bench_config.seed@%zu bench_config.fixed_offsets@%zu bench_comparison=%zu "
           "bench_comparison.rounds_a@%zu bench_floor=%zu bench_floor.resolution@%zu\n",
           sizeof(struct picollo_perf_config), sizeof(struct picollo_perf_reading),
           sizeof(struct picollo_perf_delta), sizeof(struct picollo_perf_counter_values),
           sizeof(struct picollo_perf_derived), sizeof(struct picollo_perf_info),
           sizeof(struct picollo_scope), offsetof(struct picollo_perf_config, relative_error),
           offsetof(struct picollo_perf_counter_values, overhead_syscall),
           offsetof(struct picollo_perf_info, rdpmc), offsetof(struct picollo_scope, unit),
           sizeof(struct picollo_bench_config), offsetof(struct picollo_bench_config, time_budget),
           offsetof(struct picollo_bench_config, baseline), offsetof(struct picollo_bench_config, seed),
           offsetof(struct picollo_bench_config, fixed_offsets),
           sizeof(struct picollo_bench_comparison), offsetof(struct picollo_bench_comparison, rounds_a),
           sizeof(struct picollo_bench_floor), offsetof(struct picollo_bench_floor, resolution));
    printf("perf path struct: path_choice=%zu path_choice.reason@%zu path_choice.user_ns@%zu "
           "path_choice.syscall_ns@%zu\n",
           sizeof(struct picollo_perf_path_choice), offsetof(struct picollo_perf_path_choice, reason),
           offsetof(struct picollo_perf_path_choice, user_ns),
           offsetof(struct picollo_perf_path_choice, syscall_ns));
    return 0;
}
