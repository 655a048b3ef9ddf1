// The values of parameters and arguments: converted to the member's type where C# would
// convert them implicitly, read from a source member, or every value of a bool or an enum.

using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Runtime.ExceptionServices;
using Picollo.Suites;

namespace Picollo.BenchmarkDotNet
{
    internal static class Values
    {
        static readonly Type[] Numbers =
        {
            typeof(sbyte), typeof(byte), typeof(short), typeof(ushort), typeof(int), typeof(uint),
            typeof(long), typeof(ulong), typeof(float), typeof(double), typeof(decimal),
        };

        /// <summary><paramref name="value"/> as a <paramref name="target"/>: itself where it
        /// is one, a number converted without loss to another number type, a whole number to
        /// an enum; else a
        /// SuiteUsageException naming <paramref name="where"/>.</summary>
        public static object Converted(object value, Type target, string where)
        {
            Type underlying = Nullable.GetUnderlyingType(target) ?? target;
            if (value == null)
            {
                if (!target.IsValueType || underlying != target) return null;
                throw new SuiteUsageException(where + ": null is not of type " + target.Name);
            }
            if (target.IsInstanceOfType(value) || underlying.IsInstanceOfType(value)) return value;
            if (underlying.IsEnum && Numbers.Take(8).Contains(value.GetType()))
                return Enum.ToObject(underlying, value); // a flag combination, or a value it does not name
            if (Numbers.Contains(underlying) && Numbers.Contains(value.GetType()))
            {
                try
                {
                    object converted = Convert.ChangeType(value, underlying, CultureInfo.InvariantCulture);
                    if (Convert.ToDecimal(converted, CultureInfo.InvariantCulture) == Convert.ToDecimal(value, CultureInfo.InvariantCulture))
                        return converted;
                }
                catch (OverflowException) { }
            }
            throw new SuiteUsageException(where + ": " + Names.Text(value) + " (" + value.GetType().Name + ") is not of type " + target.Name);
        }

        /// <summary>The values the member <paramref name="name"/> of <paramref name="type"/>
        /// gives: a method without parameters, a property or a field, static or of a new
        /// instance, returning an IEnumerable.</summary>
        public static List<object> FromSource(Type type, string name, string where)
        {
            MemberInfo member = type.GetMember(name, Cases.All)
                .FirstOrDefault(m => m is FieldInfo || m is PropertyInfo || (m is MethodInfo && ((MethodInfo)m).GetParameters().Length == 0));
            if (member == null)
                throw new SuiteUsageException(where + ": " + type.Name + " has no field, property or method without parameters named " + name);
            object result;
            try { result = Read(type, member); }
            catch (Exception e)
            {
                Exception thrown = (e as TargetInvocationException)?.InnerException ?? e;
                throw new SuiteUsageException(where + ": " + name + " threw " + thrown.GetType().Name + ": " + thrown.Message);
            }
            var values = result as IEnumerable;
            if (values == null || result is string)
                throw new SuiteUsageException(where + ": " + name + " does not return an IEnumerable");
            return values.Cast<object>().ToList();
        }

        static object Read(Type type, MemberInfo member)
        {
            bool isStatic = member is FieldInfo ? ((FieldInfo)member).IsStatic
                : member is PropertyInfo ? ((PropertyInfo)member).GetGetMethod(true).IsStatic
                : ((MethodInfo)member).IsStatic;
            object target = isStatic ? null : Invoker.Made(type);
            if (member is FieldInfo) return ((FieldInfo)member).GetValue(target);
            if (member is PropertyInfo) return ((PropertyInfo)member).GetValue(target, null);
            return ((MethodInfo)member).Invoke(target, null);
        }

        /// <summary>Every value of a bool or an enum (and null where it is nullable).</summary>
        public static object[] AllOf(Type target, string where)
        {
            Type underlying = Nullable.GetUnderlyingType(target) ?? target;
            object[] values;
            if (underlying == typeof(bool)) values = new object[] { false, true };
            else if (underlying.IsEnum) values = Enum.GetValues(underlying).Cast<object>().ToArray();
            else throw new SuiteUsageException(where + ": a " + target.Name + ", not a bool or an enum");
            return underlying == target ? values : values.Concat(new object[] { null }).ToArray();
        }
    }
}
