// `--list flat` and `--list tree` as BenchmarkDotNet prints them: each benchmark method's
// filter name once (Namespace.Type.Method), in the order found; the tree splits them at '.'
// and draws the levels with box characters.

using System;
using System.Collections.Generic;
using System.Linq;

namespace Picollo.BenchmarkDotNet
{
    internal static class CaseList
    {
        sealed class Node
        {
            public string Name;
            public readonly List<Node> Children = new List<Node>();
        }

        /// <summary>Prints the list of <paramref name="cases"/> in
        /// <paramref name="mode"/>; returns 0.</summary>
        public static int Print(string mode, List<Definition> cases)
        {
            var names = cases.Select(c => c.FilterName).Distinct().ToList();
            if (mode == "flat") names.ForEach(Console.WriteLine);
            else Tree(names).ForEach(n => Write(n, ""));
            return 0;
        }

        static List<Node> Tree(List<string> names)
        {
            var top = new List<Node>();
            foreach (string name in names)
            {
                List<Node> level = top;
                foreach (string part in name.Split('.'))
                {
                    Node node = level.FirstOrDefault(n => n.Name == part);
                    if (node == null) level.Add(node = new Node { Name = part });
                    level = node.Children;
                }
            }
            return top;
        }

        /// <summary><paramref name="node"/>'s line, then its children's under it, each child
        /// drawn with " ├─" (" └─" for the last) after <paramref name="indent"/>.</summary>
        static void Write(Node node, string indent)
        {
            Console.WriteLine(node.Name);
            for (int i = 0; i < node.Children.Count; i++)
            {
                bool last = i == node.Children.Count - 1;
                Console.Write(indent + (last ? " └─" : " ├─"));
                Write(node.Children[i], indent + (last ? "   " : " │ "));
            }
        }
    }
}
