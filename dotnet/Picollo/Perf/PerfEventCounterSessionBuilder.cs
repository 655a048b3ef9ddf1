// PerfEventCounterSession.Factory: whom to count, how, and which counters, in the
// announcement's fluent style. The With* calls only remember; Create makes the native session
// (picollo_perf_session_new), adds the counters in order and opens them as one group, and on
// any refusal frees what it made and throws the library's reason.

using System;
using System.Collections.Generic;

namespace Picollo.Perf
{
    /// <summary>Builds a <see cref="PerfEventCounterSession"/>; start from
    /// <see cref="PerfEventCounterSession.Factory"/>. Defaults: the calling thread on any CPU,
    /// user space only, not pinned, enabled at once, read overhead calibrated, rdpmc where
    /// allowed, histograms at relative error 0.001 recording the scaled deltas.</summary>
    public sealed class PerfEventCounterSessionBuilder
    {
        delegate Status Adder(SessionHandle session);

        PerfConfig _config = PerfConfig.Default;
        readonly List<Adder> _counters = new List<Adder>();

        /// <summary>Whom to count: <paramref name="pid"/> 0 is the calling thread (the default),
        /// else a thread or process id; <paramref name="cpu"/> -1 is any CPU (the default).</summary>
        public PerfEventCounterSessionBuilder WithTarget(int pid, int cpu = -1) { _config.Pid = pid; _config.Cpu = cpu; return this; }

        /// <summary>Pinned: the group is on the PMU all the time or not at all (never
        /// multiplexed); a pinned group that does not fit makes Read fail.</summary>
        public PerfEventCounterSessionBuilder WithPinned(bool pinned = true) { _config.Pinned = Flag(pinned); return this; }

        /// <summary>Count kernel and hypervisor work too (needs perf_event_paranoid ≤ 1).</summary>
        public PerfEventCounterSessionBuilder WithKernel(bool includeKernel = true) { _config.IncludeKernel = Flag(includeKernel); return this; }

        /// <summary>Start counting at Create (the default), or only after <see cref="PerfEventCounterSession.Enable"/>.</summary>
        public PerfEventCounterSessionBuilder WithEnabled(bool enabled = true) { _config.Enabled = Flag(enabled); return this; }

        /// <summary>Measure the cost of back-to-back reads at Create (needs enabled): the
        /// corrected deltas subtract it.</summary>
        public PerfEventCounterSessionBuilder WithCalibration(bool calibrate = true) { _config.Calibrate = Flag(calibrate); return this; }

        /// <summary>Map each hardware counter's page for the rdpmc fast path (the default).</summary>
        public PerfEventCounterSessionBuilder WithRdpmc(bool rdpmc = true) { return WithReadPolicy(rdpmc ? ReadPolicy.Auto : ReadPolicy.Syscall); }

        /// <summary>How reads go: <see cref="ReadPolicy.Auto"/> (the default) times both paths at
        /// open and takes the cheaper; <see cref="ReadPolicy.UserSpace"/> reads through the page
        /// wherever it allows; <see cref="ReadPolicy.Syscall"/> always read(2). A value the
        /// library does not know is refused by <see cref="Create"/> (ABI 1.19).</summary>
        public PerfEventCounterSessionBuilder WithReadPolicy(ReadPolicy policy) { _config.Rdpmc = (uint)policy; return this; }

        /// <summary>The relative error of every counter's histogram.</summary>
        public PerfEventCounterSessionBuilder WithRelativeError(double relativeError) { _config.RelativeError = relativeError; return this; }

        /// <summary>What <see cref="PerfEventCounterSession.Record(bool)"/> records with deltas.</summary>
        public PerfEventCounterSessionBuilder WithRecordKind(RecordKind kind) { _config.RecordKind = (uint)kind; return this; }

        /// <summary>Cycles, instructions and reference cycles: Intel's fixed counters, which
        /// take no programmable slot.</summary>
        public PerfEventCounterSessionBuilder WithFixedCounters() { return Add(s => PerfNative.picollo_perf_session_add_fixed(s)); }

        public PerfEventCounterSessionBuilder WithHardwareCounter(PerfHardwareCounterId id)
        {
            return Add(s => PerfNative.picollo_perf_session_add_hardware(s, (uint)id));
        }

        public PerfEventCounterSessionBuilder WithHardwareCounters(params PerfHardwareCounterId[] ids)
        {
            if (ids == null) throw new ArgumentNullException("ids");
            foreach (var id in ids) WithHardwareCounter(id);
            return this;
        }

        public PerfEventCounterSessionBuilder WithCacheCounter(PerfCacheCounterId id)
        {
            return WithCacheCounter(id.Level(), id.Op(), id.Result());
        }

        public PerfEventCounterSessionBuilder WithCacheCounter(CacheLevel level, CacheOp op, CacheResult result)
        {
            return Add(s => PerfNative.picollo_perf_session_add_cache(s, (uint)level, (uint)op, (uint)result));
        }

        /// <summary>A counter the kernel keeps (task clock, page faults, …): no PMU needed.</summary>
        public PerfEventCounterSessionBuilder WithSoftwareCounter(PerfSoftwareCounterId id)
        {
            return Add(s => PerfNative.picollo_perf_session_add_software(s, (uint)id));
        }

        /// <summary>A raw counter: the PMU type and its config words, as <c>perf list</c> or the
        /// vendor's tables give them.</summary>
        public PerfEventCounterSessionBuilder WithRawCounter(uint type, ulong config, ulong config1 = 0, ulong config2 = 0)
        {
            return Add(s => PerfNative.picollo_perf_session_add_raw(s, type, config, config1, config2));
        }

        /// <summary>A counter by name, as <see cref="PerfEventCounter.Name"/> writes it:
        /// <c>Hardware:CpuCycles</c>, <c>HardwareCache:L1DReadMiss</c>, <c>Software:TaskClock</c>,
        /// <c>Raw:4:0x1c2</c>.</summary>
        public PerfEventCounterSessionBuilder WithCounter(string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            byte[] n = Utf8.ToNative(name);
            return Add(s => PerfNative.picollo_perf_session_add_named(s, n));
        }

        /// <summary>The C config built so far.</summary>
        public PerfConfig Config { get { return _config; } }

        /// <summary>The session, its counters open as one group and (by default) counting.</summary>
        /// <exception cref="ArgumentException">a bad option or counter (InvalidArgument: no
        /// counter, a duplicate, an unknown id), with the library's reason naming it.</exception>
        /// <exception cref="NotSupportedException">a counter this machine cannot count
        /// (Unsupported), its reason naming it.</exception>
        /// <exception cref="UnauthorizedAccessException">the OS refuses to count it
        /// (PermissionDenied), its reason naming it.</exception>
        public PerfEventCounterSession Create()
        {
            PerfConfig config = _config;
            SessionHandle h = Handles.Made((out SessionHandle s) => PerfNative.picollo_perf_session_new(ref config, out s));
            try
            {
                foreach (var add in _counters) PicolloException.Check(add(h));
                PicolloException.Check(PerfNative.picollo_perf_session_open(h));
                return new PerfEventCounterSession(h);
            }
            catch
            {
                h.Dispose();
                throw;
            }
        }

        PerfEventCounterSessionBuilder Add(Adder add) { _counters.Add(add); return this; }

        static uint Flag(bool on) { return on ? 1u : 0u; }
    }
}
