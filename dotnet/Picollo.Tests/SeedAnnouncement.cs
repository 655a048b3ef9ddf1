// The Picollo .NET announcement as both test programs read it: where the text is (document 000
// in ../shared/seeds, or $PICOLLO_SEED_ANNOUNCEMENT), its numbered listings without the line
// numbers, and the shape of a line of output (every number as '#', table cells trimmed).
// SeedTests.cs (here) and Picollo.PerfTests/SeedPerfTests.cs use it with `using static
// SeedAnnouncement;`. One file for two programs: Picollo.PerfTests/SeedAnnouncement.cs is a
// link to this one, so each project compiles it (SDK default globbing; scripts/csproj.py
// lists it for mcs the same way).

using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;

static class SeedAnnouncement
{
    /// <summary>The announcement's file name in ../shared/seeds (as in seed_snippets.py).</summary>
    public const string SeedDocument = "000_4ed0144c480b78fe.txt";

    /// <summary>The announcement: $PICOLLO_SEED_ANNOUNCEMENT, else document 000 in
    /// shared/seeds beside a folder above the program (the checkout's parent); null if neither.</summary>
    public static string SeedFile()
    {
        string env = Environment.GetEnvironmentVariable("PICOLLO_SEED_ANNOUNCEMENT");
        if (!string.IsNullOrEmpty(env)) return File.Exists(env) ? env : null;
        for (var d = new DirectoryInfo(AppDomain.CurrentDomain.BaseDirectory); d != null; d = d.Parent)
        {
            string f = Path.Combine(d.FullName, "shared", "seeds", SeedDocument);
            if (File.Exists(f)) return f;
        }
        return null;
    }

    /// <summary>A numbered listing of the announcement: the one whose first line is
    /// <paramref name="firstLine"/>, without the line numbers.</summary>
    public static List<string> SeedListing(string firstLine)
    {
        string file = SeedFile();
        if (file == null) throw new FileNotFoundException("the announcement (" + SeedDocument + ") is not in ../shared/seeds nor at $PICOLLO_SEED_ANNOUNCEMENT");
        var text = File.ReadAllLines(file);
        int at = Array.IndexOf(text, "1" + firstLine);
        if (at < 0) throw new InvalidDataException("the announcement has no listing starting \"" + firstLine + "\"");
        var listing = new List<string> { firstLine };
        for (int n = 2, i = at + 1; i < text.Length && text[i].StartsWith(n.ToString()); n++, i++)
            listing.Add(text[i].Substring(n.ToString().Length));
        return listing;
    }

    /// <summary>A line with every number as '#' and table cells trimmed: what stays when the
    /// data changes (labels, columns, units, punctuation).</summary>
    public static string Shape(string line)
    {
        string s = Regex.Replace(Regex.Replace(line, @"[+-]?\d[\d,]*(\.\d+)?", "#"), "--+", "--");   // numbers, rule widths
        if (s.StartsWith("|")) return Trimmed(s);
        return Regex.Replace(s.Trim(), @"\s+", " ");
    }

    /// <summary>A table row with each cell trimmed: <c>| a |  b |</c> as <c>|a|b|</c>.</summary>
    public static string Trimmed(string row) { return string.Join("|", row.Split('|').Select(c => c.Trim())); }
}
