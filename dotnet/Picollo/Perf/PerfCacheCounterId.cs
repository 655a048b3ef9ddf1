// PerfCacheCounterId: a cache counter (level × operation × result) as one id, the way the
// announcement names them (PerfCacheCounterId.L1DReadMiss). Each value is the kernel's config
// word for PERF_TYPE_HW_CACHE, level | op << 8 | result << 16, so the id decodes back into
// the three numbers picollo_perf_session_add_cache takes. Not every machine counts every
// combination: the session's Create says which one it cannot open, and why.

namespace Picollo.Perf
{
    /// <summary>A cache counter: <see cref="CacheLevel"/>, <see cref="CacheOp"/> and
    /// <see cref="CacheResult"/> in one id (named like the counter, <c>HardwareCache:L1DReadMiss</c>).
    /// L1D/L1I: level-1 data/instruction cache; LL: last-level cache; DTLB/ITLB: data/instruction
    /// TLB; BPU: branch prediction unit; NODE: local memory. Read/Write/Prefetch: loads, stores,
    /// prefetches; Access/Miss: all of them or the misses.</summary>
    public enum PerfCacheCounterId : uint
    {
        L1DReadAccess = 0x00000,
        L1DReadMiss = 0x10000,
        L1DWriteAccess = 0x00100,
        L1DWriteMiss = 0x10100,
        L1DPrefetchAccess = 0x00200,
        L1DPrefetchMiss = 0x10200,
        L1IReadAccess = 0x00001,
        L1IReadMiss = 0x10001,
        L1IWriteAccess = 0x00101,
        L1IWriteMiss = 0x10101,
        L1IPrefetchAccess = 0x00201,
        L1IPrefetchMiss = 0x10201,
        LLReadAccess = 0x00002,
        LLReadMiss = 0x10002,
        LLWriteAccess = 0x00102,
        LLWriteMiss = 0x10102,
        LLPrefetchAccess = 0x00202,
        LLPrefetchMiss = 0x10202,
        DTLBReadAccess = 0x00003,
        DTLBReadMiss = 0x10003,
        DTLBWriteAccess = 0x00103,
        DTLBWriteMiss = 0x10103,
        DTLBPrefetchAccess = 0x00203,
        DTLBPrefetchMiss = 0x10203,
        ITLBReadAccess = 0x00004,
        ITLBReadMiss = 0x10004,
        ITLBWriteAccess = 0x00104,
        ITLBWriteMiss = 0x10104,
        ITLBPrefetchAccess = 0x00204,
        ITLBPrefetchMiss = 0x10204,
        BPUReadAccess = 0x00005,
        BPUReadMiss = 0x10005,
        BPUWriteAccess = 0x00105,
        BPUWriteMiss = 0x10105,
        BPUPrefetchAccess = 0x00205,
        BPUPrefetchMiss = 0x10205,
        NODEReadAccess = 0x00006,
        NODEReadMiss = 0x10006,
        NODEWriteAccess = 0x00106,
        NODEWriteMiss = 0x10106,
        NODEPrefetchAccess = 0x00206,
        NODEPrefetchMiss = 0x10206,
    }

    /// <summary>The parts of a <see cref="PerfCacheCounterId"/>.</summary>
    public static class PerfCacheCounterIds
    {
        public static CacheLevel Level(this PerfCacheCounterId id) { return (CacheLevel)((uint)id & 0xff); }
        public static CacheOp Op(this PerfCacheCounterId id) { return (CacheOp)(((uint)id >> 8) & 0xff); }
        public static CacheResult Result(this PerfCacheCounterId id) { return (CacheResult)((uint)id >> 16); }

        /// <summary>The id of a level, operation and result.</summary>
        public static PerfCacheCounterId Of(CacheLevel level, CacheOp op, CacheResult result)
        {
            return (PerfCacheCounterId)((uint)level | (uint)op << 8 | (uint)result << 16);
        }
    }
}
