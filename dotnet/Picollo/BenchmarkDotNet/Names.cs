// Benchmarks named as BenchmarkDotNet names them: `Namespace.Type.Method` to filter and list
// (nested classes joined by '.'), and `Namespace.Outer+Type.Method(arg: 1, N: 10)` in full
// (nested classes joined by '+'; the method's arguments first, then the class's parameters),
// each value written as BenchmarkDotNet writes it ("text", 'c', null, [1, 2, 3], typeof(int));
// a generic class's type arguments by their names (`Namespace.Sorts<Int32>.Sort`).

using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Text;

namespace Picollo.BenchmarkDotNet
{
    internal static class Names
    {
        /// <summary><c>Namespace.Outer.Type.Method</c>.</summary>
        public static string FilterName(Type type, MethodInfo m)
        {
            return Prefix(type) + Nesting(type, ".") + TypeName(type) + "." + m.Name;
        }

        /// <summary><c>Namespace.Outer+Type.Method(arg: 1, N: 10)</c>.</summary>
        public static string FullName(Definition c)
        {
            var name = new StringBuilder(Prefix(c.Type) + Nesting(c.Type, "+") + TypeName(c.Type) + "." + c.Method.Name);
            var parts = c.Method.GetParameters().Select((p, i) => p.Name + ": " + Text(c.Arguments[i]))
                .Concat(c.Params.Select(p => p.Key.Name + ": " + Text(p.Value))).ToList();
            if (parts.Count > 0) name.Append('(').Append(string.Join(", ", parts)).Append(')');
            return name.ToString();
        }

        /// <summary>A class's name: a generic one's with its type arguments, as
        /// BenchmarkDotNet writes them (<c>Sorts&lt;Int32&gt;</c>, <c>Maps&lt;String, List&lt;Int32&gt;&gt;</c>).</summary>
        public static string TypeName(Type type)
        {
            if (!type.IsGenericType) return type.Name;
            string bare = type.Name.Substring(0, type.Name.IndexOf('`'));
            return bare + "<" + string.Join(", ", type.GetGenericArguments().Select(TypeName)) + ">";
        }

        /// <summary>A class's name without its type arguments (a suite's, a folder's name).</summary>
        public static string BareName(Type type)
        {
            int tick = type.Name.IndexOf('`');
            return tick < 0 ? type.Name : type.Name.Substring(0, tick);
        }

        static string Prefix(Type type)
        {
            return string.IsNullOrEmpty(type.Namespace) ? "" : type.Namespace + ".";
        }

        static string Nesting(Type type, string joint)
        {
            string outer = "";
            for (Type t = type.DeclaringType; t != null; t = t.DeclaringType) outer = t.Name + joint + outer;
            return outer;
        }

        /// <summary>A value as BenchmarkDotNet writes it in a name.</summary>
        public static string Text(object value)
        {
            if (value == null) return "null";
            if (value is string) return "\"" + Escaped((string)value, '"') + "\"";
            if (value is char) return "'" + Escaped(value.ToString(), '\'') + "'";
            if (value is DateTime) return ((DateTime)value).ToString("yyyy'-'MM'-'dd'T'HH':'mm':'ss.fffffffK", CultureInfo.InvariantCulture);
            if (value is Type) return "typeof(" + ((Type)value).Name + ")";
            if (value is Array) return Items((IEnumerable)value);
            var formattable = value as IFormattable;
            return formattable != null ? formattable.ToString(null, CultureInfo.InvariantCulture) : value.ToString();
        }

        /// <summary>[a, b, c, d, e, ...]: the first five items.</summary>
        static string Items(IEnumerable items)
        {
            var all = items.Cast<object>().ToList();
            var shown = all.Take(5).Select(Text).ToList();
            if (all.Count > 5) shown.Add("...");
            return "[" + string.Join(", ", shown) + "]";
        }

        static string Escaped(string text, char quote)
        {
            var s = new StringBuilder();
            foreach (char ch in text)
            {
                switch (ch)
                {
                    case '\t': s.Append("\\t"); break;
                    case '\r': s.Append("\\r"); break;
                    case '\n': s.Append("\\n"); break;
                    case '\\': s.Append("\\\\"); break;
                    default:
                        if (ch == quote) s.Append('\\');
                        s.Append(ch);
                        break;
                }
            }
            return s.ToString();
        }
    }
}
