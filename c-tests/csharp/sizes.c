/* Prints the C layout of the structs the C# binding mirrors, in the format Tests.cs,
 * HdrTests.cs, MetricsTests.cs, FloatTests.cs and QueryTests.cs print from
 * Marshal.SizeOf/OffsetOf; run.sh requires each line to be identical to the C# one. */
#include <stddef.h>
#include <stdio.h>

#include "picollo.h"

int main(void)
{
    printf("struct sizes: config=%zu info=%zu percentile=%zu summary=%zu bucket=%zu "
           "summary.total@%zu info.relative_error@%zu config.relative_error@%zu\n",
           sizeof(struct picollo_histogram_config), sizeof(struct picollo_histogram_info),
           sizeof(struct picollo_percentile), sizeof(struct picollo_summary),
           sizeof(struct picollo_bucket), offsetof(struct picollo_summary, total),
           offsetof(struct picollo_histogram_info, relative_error),
           offsetof(struct picollo_histogram_config, relative_error));
    printf("hdr struct sizes: log_interval=%zu log_interval.start@%zu log_interval.line@%zu "
           "log_interval.has_tag@%zu\n",
           sizeof(struct picollo_log_interval), offsetof(struct picollo_log_interval, start),
           offsetof(struct picollo_log_interval, line),
           offsetof(struct picollo_log_interval, has_tag));
    printf("metrics struct sizes: label=%zu openmetrics_options=%zu otlp_options=%zu "
           "openmetrics_options.coarse_relative_error@%zu openmetrics_options.created_unix_nanos@%zu "
           "otlp_options.start_time_unix_nano@%zu otlp_options.scale@%zu otlp_options.unit_ratio@%zu\n",
           sizeof(struct picollo_label), sizeof(struct picollo_openmetrics_options),
           sizeof(struct picollo_otlp_options),
           offsetof(struct picollo_openmetrics_options, coarse_relative_error),
           offsetof(struct picollo_openmetrics_options, created_unix_nanos),
           offsetof(struct picollo_otlp_options, start_time_unix_nano),
           offsetof(struct picollo_otlp_options, scale), offsetof(struct picollo_otlp_options, unit_ratio));
    printf("float struct sizes: config=%zu info=%zu percentile=%zu summary=%zu bucket=%zu "
           "config.min_magnitude@%zu config.storage@%zu info.sum@%zu info.buckets_per_octave@%zu "
           "info.counter_bits@%zu percentile.count@%zu percentile.side@%zu summary.total@%zu "
           "summary.sum@%zu summary.max_magnitude@%zu bucket.count@%zu bucket.side@%zu\n",
           sizeof(struct picollo_float_config), sizeof(struct picollo_float_info),
           sizeof(struct picollo_float_percentile), sizeof(struct picollo_float_summary),
           sizeof(struct picollo_float_bucket), offsetof(struct picollo_float_config, min_magnitude),
           offsetof(struct picollo_float_config, storage), offsetof(struct picollo_float_info, sum),
           offsetof(struct picollo_float_info, buckets_per_octave),
           offsetof(struct picollo_float_info, counter_bits),
           offsetof(struct picollo_float_percentile, count),
           offsetof(struct picollo_float_percentile, side), offsetof(struct picollo_float_summary, total),
           offsetof(struct picollo_float_summary, sum),
           offsetof(struct picollo_float_summary, max_magnitude),
           offsetof(struct picollo_float_bucket, count), offsetof(struct picollo_float_bucket, side));
    printf("query struct sizes: step=%zu recorder=%zu step.percentile@%zu recorder.len@%zu "
           "recorder.block_scale@%zu recorder.kind@%zu recorder.fine_scale@%zu\n",
           sizeof(struct picollo_step), sizeof(struct picollo_recorder),
           offsetof(struct picollo_step, percentile), offsetof(struct picollo_recorder, len),
           offsetof(struct picollo_recorder, block_scale), offsetof(struct picollo_recorder, kind),
           offsetof(struct picollo_recorder, fine_scale));
    return 0;
}
