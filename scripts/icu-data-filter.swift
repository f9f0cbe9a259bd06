// The ICU data triage links in, cut to what it uses: scripts/install compiles
// this (swiftc -O) and runs it on the data Foundation's static library carries.
//
//   icu-data-filter IN.dat OUT.dat
//
// Foundation links all of ICU's data (34 MB of the 62 MB binary, ICU 76): every
// locale's names, formats and collation, the charset converters, the Thai and
// CJK word dictionaries. triage uses ICU only through Foundation's TimeZone,
// Calendar and ISO8601DateFormatter (its own wording is English and independent
// of the locale; charsets go through iconv, never ICU's converters). So the
// filtered data keeps every item except (about 8 MB of 34 stay):
//   - locale bundles other than root and en* (in every tree: the main one, zone,
//     lang, region, curr, unit, rbnf, brkitr, coll): a locale that is missing
//     falls back to root, as ICU does for any locale it does not know;
//   - the charset converters (*.cnv; the alias table stays);
//   - collation but for root, en* and the UCA table; the transliterators.
// What stays refers to nothing that went (icupkg -l lists the result without a
// complaint; so the word dictionaries stay, which root's break rules name).
// Time zone data (zoneinfo64, metaZones, timezoneTypes, windowsZones),
// supplemental data, normalization, case mapping and properties all stay.
//
// The file is ICU's common data format (a "package", as icupkg writes it): a
// header, a table of contents sorted by item name (count, then name and data
// offsets from the start of the table), the names, then each item 16-byte
// aligned. Items are copied byte for byte, in the same order.

import Foundation

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("icu-data-filter: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: icu-data-filter IN.dat OUT.dat") }
guard let input = FileManager.default.contents(atPath: arguments[1]) else { fail("cannot read \(arguments[1])") }
let bytes = [UInt8](input)

func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }

// The header: its size, then the magic 0xda 0x27; little-endian data only.
guard bytes.count > 32, bytes[2] == 0xDA, bytes[3] == 0x27 else { fail("\(arguments[1]) is not ICU common data") }
let headerSize = u16(0)
guard bytes[8] == 0 else { fail("\(arguments[1]) is not little-endian ICU data") }
let count = u32(headerSize)
guard count > 0, headerSize + 4 + 8 * count <= bytes.count else { fail("\(arguments[1]): a broken table of contents") }

struct Item { var name: String; var start: Int; var size: Int }
var items: [Item] = []
for i in 0..<count {
    let nameOffset = headerSize + u32(headerSize + 4 + 8 * i)
    let dataOffset = headerSize + u32(headerSize + 8 + 8 * i)
    let end = i + 1 < count ? headerSize + u32(headerSize + 8 + 8 * (i + 1)) : bytes.count
    guard let nul = bytes[nameOffset...].firstIndex(of: 0), dataOffset <= end, end <= bytes.count else {
        fail("\(arguments[1]): item \(i) is out of bounds")
    }
    items.append(Item(name: String(decoding: bytes[nameOffset..<nul], as: UTF8.self), start: dataOffset, size: end - dataOffset))
}

/// `en`, `en_US`, `en_US_POSIX`, `en_001`...: the locales triage's English needs.
func isEnglish(_ base: String) -> Bool { base == "en.res" || base.hasPrefix("en_") }

/// A locale bundle's file name: `de.res`, `zh_Hant_TW.res`, `de_.res` (not `pool.res`, `res_index.res`).
func isLocale(_ base: String) -> Bool {
    guard base.hasSuffix(".res"), base != "res_index.res" else { return false }
    let parts = base.dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
    guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
        return false
    }
    return parts.dropFirst().allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
}

func keeps(_ name: String) -> Bool {
    // Names are TREE-PREFIX/[SUBTREE/]FILE, e.g. icudt76l/zone/de.res.
    let parts = name.split(separator: "/").map(String.init)
    let base = parts.last ?? name
    let tree = parts.count > 2 ? parts[1] : ""
    if base.hasSuffix(".cnv") || tree == "translit" { return false }
    if tree == "coll" { return base == "root.res" || base == "ucadata.icu" || base == "res_index.res" || isEnglish(base) }
    return !isLocale(base) || isEnglish(base)
}

let kept = items.filter { keeps($0.name) }
guard kept.contains(where: { $0.name.hasSuffix("/zoneinfo64.res") }), kept.contains(where: { $0.name.hasSuffix("/root.res") }) else {
    fail("\(arguments[1]) has no zoneinfo64.res or root.res: not the data this filter knows; not filtered")
}

func aligned(_ n: Int) -> Int { (n + 15) & ~15 }
var names: [UInt8] = []
var nameOffsets: [Int] = []
let tableSize = 4 + 8 * kept.count
for item in kept {
    nameOffsets.append(tableSize + names.count)
    names += Array(item.name.utf8) + [0]
}
var out = Array(bytes[0..<headerSize])
func put32(_ value: Int) { for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((value >> shift) & 0xFF)) } }
put32(kept.count)
var dataOffsets: [Int] = []
var position = aligned(headerSize + tableSize + names.count) - headerSize
for item in kept {
    dataOffsets.append(position)
    position = aligned(headerSize + position + item.size) - headerSize
}
for (name, data) in zip(nameOffsets, dataOffsets) { put32(name); put32(data) }
out += names
for (item, offset) in zip(kept, dataOffsets) {
    out += [UInt8](repeating: 0, count: headerSize + offset - out.count)
    out += bytes[item.start..<(item.start + item.size)]
}
guard FileManager.default.createFile(atPath: arguments[2], contents: Data(out)) else { fail("cannot write \(arguments[2])") }
print(String(format: "kept %d of %d items: %.1f MB of %.1f MB", kept.count, items.count,
             Double(out.count) / 1e6, Double(bytes.count) / 1e6))
