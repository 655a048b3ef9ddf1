// Picollo for .NET: the exceptions. One .NET type per kind of error, whether the binding or
// the library found it:
//   a bad argument                 ArgumentException (ArgumentNullException and
//                                  ArgumentOutOfRangeException from the binding's own checks;
//                                  PicolloArgumentException, PicolloArgumentOutOfRangeException
//                                  from the library's statuses);
//   a disposed object              ObjectDisposedException (the SafeHandle's own);
//   a state the call cannot use    InvalidOperationException (an empty histogram; a
//                                  histogram a format cannot hold);
//   a mode without the operation   NotSupportedException;
//   malformed text or bytes        FormatException (PicolloFormatException);
//   permission, memory             UnauthorizedAccessException, OutOfMemoryException;
//   the rest (an OS error, a caught panic)  PicolloException.
// Every exception made from a library status carries the status and the library's message
// (IPicolloError), so `catch (Exception e) when (e is IPicolloError)` sees all of them.

using System;
using System.Text.RegularExpressions;

namespace Picollo
{
    /// <summary>What an exception made from a library status carries, whichever .NET type it
    /// is thrown as.</summary>
    public interface IPicolloError
    {
        /// <summary>The status the library returned.</summary>
        Status Status { get; }

        /// <summary>The library's message for it.</summary>
        string NativeMessage { get; }
    }

    /// <summary>A library status with no .NET equivalent (<see cref="Status.OsError"/>,
    /// <see cref="Status.Panic"/>), with the library's message. The other statuses are thrown
    /// as the .NET exception of their kind (<see cref="For"/>).</summary>
    public class PicolloException : Exception, IPicolloError
    {
        public Status Status { get; private set; }
        public string NativeMessage { get; private set; }

        public PicolloException(Status status, string nativeMessage) : base(Describe(status, nativeMessage))
        {
            Status = status;
            NativeMessage = nativeMessage;
        }

        /// <summary>The text every status exception shows: <c>picollo: Empty (5): …</c>.</summary>
        internal static string Describe(Status status, string nativeMessage)
        {
            return string.Format("picollo: {0} ({1}): {2}", status, (uint)status, nativeMessage);
        }

        /// <summary>The exception a status is thrown as (see the file's table).</summary>
        public static Exception For(Status status, string nativeMessage)
        {
            switch (status)
            {
                case Status.NullPointer:
                case Status.InvalidArgument:
                case Status.StructSize:
                case Status.BufferTooSmall:
                case Status.LayoutMismatch:
                case Status.WouldGoNegative:
                case Status.InvalidUtf8:
                    return new PicolloArgumentException(status, nativeMessage);
                case Status.OutOfRange: return new PicolloArgumentOutOfRangeException(nativeMessage);
                case Status.Empty: return new PicolloInvalidOperationException(status, nativeMessage);
                case Status.Unencodable: return new PicolloUnencodableException(nativeMessage);
                case Status.Unsupported: return new PicolloNotSupportedException(nativeMessage);
                case Status.PermissionDenied: return new PicolloUnauthorizedAccessException(nativeMessage);
                case Status.OutOfMemory: return new PicolloOutOfMemoryException(nativeMessage);
                case Status.FormatError: return new PicolloFormatException(nativeMessage);
                default: return new PicolloException(status, nativeMessage);
            }
        }

        /// <summary>Throw for any status but OK. Call right after the failing call, on the same
        /// thread: the message is thread-local and the next Picollo call replaces it.</summary>
        internal static void Check(Status status)
        {
            if (status != Status.Ok)
                throw For(status, Utf8.FromNative(Native.picollo_last_error_message()));
        }
    }

    /// <summary>A bad argument the library found: <see cref="Status.InvalidArgument"/> (the
    /// message names it), and the statuses that refuse an argument: NullPointer, StructSize,
    /// BufferTooSmall, LayoutMismatch (the other histogram's layout), WouldGoNegative (the
    /// other histogram's counts), InvalidUtf8.</summary>
    public sealed class PicolloArgumentException : ArgumentException, IPicolloError
    {
        public Status Status { get; private set; }
        public string NativeMessage { get; private set; }

        public PicolloArgumentException(Status status, string nativeMessage)
            : base(PicolloException.Describe(status, nativeMessage))
        {
            Status = status;
            NativeMessage = nativeMessage;
        }
    }

    /// <summary><see cref="Status.OutOfRange"/>: an index past the end, or a value outside the
    /// histogram's range.</summary>
    public sealed class PicolloArgumentOutOfRangeException : ArgumentOutOfRangeException, IPicolloError
    {
        public Status Status { get { return Status.OutOfRange; } }
        public string NativeMessage { get; private set; }

        public PicolloArgumentOutOfRangeException(string nativeMessage)
            : base(null, PicolloException.Describe(Status.OutOfRange, nativeMessage))
        {
            NativeMessage = nativeMessage;
        }
    }

    /// <summary><see cref="Status.Empty"/>: the histogram holds no value to answer from.</summary>
    public sealed class PicolloInvalidOperationException : InvalidOperationException, IPicolloError
    {
        public Status Status { get; private set; }
        public string NativeMessage { get; private set; }

        public PicolloInvalidOperationException(Status status, string nativeMessage)
            : base(PicolloException.Describe(status, nativeMessage))
        {
            Status = status;
            NativeMessage = nativeMessage;
        }
    }

    /// <summary><see cref="Status.Unencodable"/>: the histogram cannot be written in that format
    /// (saturated counts, a bucket count above 2^63 − 1, a value above 2^63 − 1); nothing was
    /// written.</summary>
    public sealed class PicolloUnencodableException : InvalidOperationException, IPicolloError
    {
        public Status Status { get { return Status.Unencodable; } }
        public string NativeMessage { get; private set; }

        public PicolloUnencodableException(string nativeMessage)
            : base(PicolloException.Describe(Status.Unencodable, nativeMessage))
        {
            NativeMessage = nativeMessage;
        }
    }

    /// <summary><see cref="Status.Unsupported"/>: the histogram's mode or configuration has no
    /// such operation (Subtract outside the single-writer mode, the recorded extremes of a
    /// histogram that keeps none), or the machine has no such counter.</summary>
    public sealed class PicolloNotSupportedException : NotSupportedException, IPicolloError
    {
        public Status Status { get { return Status.Unsupported; } }
        public string NativeMessage { get; private set; }

        public PicolloNotSupportedException(string nativeMessage)
            : base(PicolloException.Describe(Status.Unsupported, nativeMessage))
        {
            NativeMessage = nativeMessage;
        }
    }

    /// <summary><see cref="Status.PermissionDenied"/>: the OS refused (perf_event_paranoid, a
    /// capability).</summary>
    public sealed class PicolloUnauthorizedAccessException : UnauthorizedAccessException, IPicolloError
    {
        public Status Status { get { return Status.PermissionDenied; } }
        public string NativeMessage { get; private set; }

        public PicolloUnauthorizedAccessException(string nativeMessage)
            : base(PicolloException.Describe(Status.PermissionDenied, nativeMessage))
        {
            NativeMessage = nativeMessage;
        }
    }

    /// <summary><see cref="Status.OutOfMemory"/>: the library could not allocate.</summary>
    public sealed class PicolloOutOfMemoryException : OutOfMemoryException, IPicolloError
    {
        public Status Status { get { return Status.OutOfMemory; } }
        public string NativeMessage { get; private set; }

        public PicolloOutOfMemoryException(string nativeMessage)
            : base(PicolloException.Describe(Status.OutOfMemory, nativeMessage))
        {
            NativeMessage = nativeMessage;
        }
    }

    /// <summary><see cref="Status.FormatError"/>: the input is not valid V2, base64 or interval
    /// log text. The message says what is wrong and, for a log, on which line.</summary>
    public sealed class PicolloFormatException : FormatException, IPicolloError
    {
        public Status Status { get { return Status.FormatError; } }
        public string NativeMessage { get; private set; }

        public PicolloFormatException(string nativeMessage)
            : base(PicolloException.Describe(Status.FormatError, nativeMessage))
        {
            NativeMessage = nativeMessage;
            var m = Regex.Match(nativeMessage ?? "", @"^line (\d+): ");
            long line;
            if (m.Success && long.TryParse(m.Groups[1].Value, out line)) LineNumber = line;
        }

        /// <summary>The 1-based log line of the error (log messages start "line N: "), or
        /// null for V2 and base64 errors.</summary>
        public long? LineNumber { get; private set; }
    }
}
