// Picollo for .NET: what every handle class shares. Each native object the library allocates
// is owned by one SafeHandleZeroIsInvalid subclass (HistogramHandle, SnapshotHandle, ... beside
// the DllImports of Picollo*.cs) whose Free is the matching picollo_*_free; Handles adopts the
// handle a constructor-like call made (or throws its error) and pins two handles for a call
// taking both.

using System;
using System.Runtime.InteropServices;

namespace Picollo
{
    /// <summary>A SafeHandle over a pointer the library allocated: invalid when zero, freed by
    /// <see cref="Free"/> (the subclass's picollo_*_free). The marshaller AddRefs it around
    /// each call, so a Dispose racing a call cannot free the object under it.</summary>
    internal abstract class SafeHandleZeroIsInvalid : SafeHandle
    {
        /// <summary>An owning handle, set by the marshaller from an out parameter.</summary>
        protected SafeHandleZeroIsInvalid() : base(IntPtr.Zero, true) { }

        /// <summary>A handle another object owns: never freed through this wrapper.</summary>
        protected SafeHandleZeroIsInvalid(IntPtr borrowed) : base(IntPtr.Zero, false) { SetHandle(borrowed); }

        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        /// <summary>The picollo_*_free of this kind of object.</summary>
        protected abstract void Free(IntPtr pointer);

        protected override bool ReleaseHandle()
        {
            Free(handle);
            return true;
        }
    }

    internal static class Handles
    {
        /// <summary>A constructor-like call: the new object's handle through out.</summary>
        public delegate Status Maker<T>(out T made);

        /// <summary>The handle <paramref name="make"/> made, adopted (see <see cref="Adopt{T}"/>).</summary>
        public static T Made<T>(Maker<T> make) where T : SafeHandle
        {
            T made;
            Status st = make(out made);
            return Adopt(st, made);
        }

        /// <summary>The handle a constructor-like call made, or its error: the library's
        /// message read first (the next call on this thread replaces it), then the handle, if
        /// any was made, freed.</summary>
        public static T Adopt<T>(Status st, T made) where T : SafeHandle
        {
            if (st == Status.Ok) return made;
            string message = Utf8.FromNative(Native.picollo_last_error_message());
            if (made != null) made.Dispose();
            throw PicolloException.For(st, message);
        }

        /// <summary>Call with both handles' pointers, each kept alive (AddRef) for the call;
        /// ObjectDisposedException if either is disposed, with no reference leaked.</summary>
        public static Status Call2(SafeHandle a, SafeHandle b, Func<IntPtr, IntPtr, Status> call)
        {
            bool refA = false, refB = false;
            try
            {
                a.DangerousAddRef(ref refA);
                b.DangerousAddRef(ref refB);
                return call(a.DangerousGetHandle(), b.DangerousGetHandle());
            }
            finally
            {
                if (refB) b.DangerousRelease();
                if (refA) a.DangerousRelease();
            }
        }
    }
}
