// BenchmarkDotNet's Consumer: a benchmark hands it values (or a lazy sequence, with the
// Consume extension) so that the work that made them cannot be left out as dead code. Each
// value is written to a field the JIT must write, as the runner does with a benchmark's
// result; a sequence is enumerated to its end.

using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Threading;

namespace Picollo.BenchmarkDotNet.Engines
{
    /// <summary>Keeps the values given to it alive (one field a type, each overwritten).</summary>
    public class Consumer
    {
        // Fields of an instance another thread could read: the JIT must write each store.
#pragma warning disable 414 // written only
        byte _byte;
        sbyte _sbyte;
        short _short;
        ushort _ushort;
        int _int;
        uint _uint;
        bool _bool;
        char _char;
        float _float;
        double _double;
        long _long;
        ulong _ulong;
        IntPtr _ptr;
        UIntPtr _uptr;
        object _object;
#pragma warning restore 414

        public void Consume(byte value) { _byte = value; }
        public void Consume(sbyte value) { _sbyte = value; }
        public void Consume(short value) { _short = value; }
        public void Consume(ushort value) { _ushort = value; }
        public void Consume(int value) { _int = value; }
        public void Consume(uint value) { _uint = value; }
        public void Consume(bool value) { _bool = value; }
        public void Consume(char value) { _char = value; }
        public void Consume(float value) { _float = value; }

        // 64-bit values written whole on a 32-bit machine too.
        public void Consume(double value) { Volatile.Write(ref _double, value); }
        public void Consume(long value) { Volatile.Write(ref _long, value); }
        public void Consume(ulong value) { Volatile.Write(ref _ulong, value); }

        public void Consume(IntPtr value) { _ptr = value; }
        public void Consume(UIntPtr value) { _uptr = value; }
        public unsafe void Consume(void* value) { _ptr = (IntPtr)value; }
        public void Consume(string value) { Volatile.Write(ref _object, value); }
        public void Consume(object value) { Volatile.Write(ref _object, value); }

        /// <summary>Keeps <paramref name="value"/> alive, a struct without boxing it.</summary>
        public void Consume<T>(T value) { Held<T>.Value = value; }

        /// <summary>Where values of a generic type go: a static field, which the JIT must write.</summary>
        static class Held<T>
        {
#pragma warning disable 414 // written only
            internal static T Value;
#pragma warning restore 414
        }
    }

    /// <summary>Runs a lazy sequence to its end, each item given to a <see cref="Consumer"/>.</summary>
    public static class ConsumerExtensions
    {
        public static void Consume(this IEnumerable enumerable, Consumer consumer)
        {
            if (enumerable == null) throw new ArgumentNullException("enumerable");
            if (consumer == null) throw new ArgumentNullException("consumer");
            foreach (object item in enumerable) consumer.Consume(item);
        }

        public static void Consume<T>(this IEnumerable<T> enumerable, Consumer consumer)
        {
            if (enumerable == null) throw new ArgumentNullException("enumerable");
            if (consumer == null) throw new ArgumentNullException("consumer");
            foreach (T item in enumerable) consumer.Consume<T>(item);
        }

        public static void Consume(this IQueryable queryable, Consumer consumer)
        {
            Consume((IEnumerable)queryable, consumer);
        }

        public static void Consume<T>(this IQueryable<T> queryable, Consumer consumer)
        {
            Consume((IEnumerable<T>)queryable, consumer);
        }
    }
}
