#!/usr/bin/env python3
"""Typed requests from the protocol XML, for Sources/InputRouterWayland.

Writes, from libwayland's wayland.xml and protocols/*.xml, each when asked for:

- a Swift file with one `enum <Interface>Request` per interface the server implements:
  a case per request with named, typed arguments, the version each case appeared in
  (`since`), and `init?(opcode:_:)` from libwayland's `wl_argument` array. The decoders
  are the only place request opcodes are numbered; handlers switch over the cases.
  It also gives every interface table a name (`UnsafePointer<wl_interface>.wlSeat`).
- a C header of `static inline` accessors for the scanner's `*_interface` tables: Swift
  imports a C global as a value it may copy, and libwayland needs the table's address.
- the module map of CWaylandProtocols: the scanner's server and client headers of each
  protocol, and that header; with --scanner, those headers too, written next to it (in
  the same build step as the module map, so the build runs it before any importer).

Usage: generate-requests.py [--swift F] [--header F] [--modulemap F [--scanner WAYLAND_SCANNER]]
           CORE_XML PROTOCOL_XML...
Run at build time by the WaylandProtocols plugin (Plugins/WaylandProtocols), next to
wayland-scanner; Debian 12's python3 and its standard library only.
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

# The interfaces of wayland.xml whose requests our WaylandObject subclasses handle
# (the rest are libwayland's own: wl_display, wl_registry, wl_shm, wl_shm_pool, wl_buffer).
# Interfaces without requests get no enum.
CORE_IMPLEMENTED = {
    "wl_compositor", "wl_surface", "wl_region", "wl_subcompositor", "wl_subsurface",
    "wl_seat", "wl_pointer", "wl_keyboard", "wl_touch", "wl_output",
    "wl_data_device_manager", "wl_data_device", "wl_data_source", "wl_data_offer",
}

SWIFT_KEYWORDS = {
    "as", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer",
    "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate", "for",
    "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil",
    "operator", "private", "protocol", "public", "repeat", "rethrows", "return", "self",
    "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try",
    "typealias", "var", "where", "while",
}

# wl_argument member read, and the Swift type it decodes to.
ARGUMENT_TYPES = {
    "int": ("int", "Int32"),
    "uint": ("uint", "UInt32"),
    "fixed": ("fixed", "Double"),
    "string": ("string", "String?"),
    "object": ("resource", "ResourcePointer?"),
    "new_id": ("newID", "UInt32"),
    "array": ("array", "UnsafeMutablePointer<wl_array>?"),
    "fd": ("fd", "Int32"),
}


def camel(name, upper=False):
    parts = [p for p in name.split("_") if p]
    text = parts[0] + "".join(p[:1].upper() + p[1:] for p in parts[1:])
    if upper:
        text = text[:1].upper() + text[1:]
    return text


def identifier(name):
    text = camel(name)
    return f"`{text}`" if text in SWIFT_KEYWORDS else text


def interfaces(path):
    root = ET.parse(path).getroot()
    return root.get("name"), root.findall("interface")


def request_enum(interface, protocol):
    name = interface.get("name")
    enum_name = camel(name, upper=True) + "Request"
    requests = interface.findall("request")
    lines = [f"/// `{name}` requests ({protocol}.xml), decoded from libwayland's arguments."]
    lines.append(f"enum {enum_name}: WaylandRequest, Equatable {{")
    decoded = []
    for opcode, request in enumerate(requests):
        case = identifier(request.get("name"))
        args = request.findall("arg")
        if args:
            fields = ", ".join(f"{identifier(a.get('name'))}: {ARGUMENT_TYPES[a.get('type')][1]}" for a in args)
            lines.append(f"    case {case}({fields})")
            reads = ", ".join(
                f"{identifier(a.get('name'))}: args.{ARGUMENT_TYPES[a.get('type')][0]}({i})" for i, a in enumerate(args))
            decoded.append((opcode, f"{case}({reads})"))
        else:
            lines.append(f"    case {case}")
            decoded.append((opcode, case))
    lines.append("")
    lines.append(f"    static var interface: UnsafePointer<wl_interface> {{ .{camel(name)} }}")
    lines.append("")
    lines.append("    /// nil for an opcode the interface does not have (libwayland refuses those first).")
    lines.append("    init?(opcode: UInt32, _ args: Arguments) {")
    lines.append("        switch opcode {")
    for opcode, expression in decoded:
        lines.append(f"        case {opcode}: self = .{expression}")
    lines.append("        default: return nil")
    lines.append("        }")
    lines.append("    }")
    lines.append("")
    lines.append("    /// The interface version the request appeared in.")
    lines.append("    var since: Int32 {")
    lines.append("        switch self {")
    for request in requests:
        lines.append(f"        case .{identifier(request.get('name'))}: {request.get('since', '1')}")
    lines.append("        }")
    lines.append("    }")
    lines.append("}")
    return "\n".join(lines)


def main():
    arguments = sys.argv[1:]
    outputs = {}
    while arguments and arguments[0].startswith("--"):
        outputs[arguments[0][2:]] = arguments[1]
        arguments = arguments[2:]
    core_xml, *protocol_xmls = arguments
    enums, names = [], []
    for path, implemented in [(core_xml, CORE_IMPLEMENTED)] + [(p, None) for p in sorted(protocol_xmls)]:
        protocol, found = interfaces(path)
        for interface in found:
            name = interface.get("name")
            names.append(name)
            if (implemented is None or name in implemented) and interface.find("request") is not None:
                enums.append(request_enum(interface, protocol))

    swift = [
        "// Generated by tools/generate-requests.py from wayland.xml and protocols/*.xml. Do not edit.",
        "import CWaylandInterfaces",
        "import CWaylandServer",
        "",
        "extension UnsafePointer<wl_interface> {",
    ]
    swift += [f"    static var {camel(n)}: Self {{ ir_{n}_interface() }}" for n in names]
    swift += ["}", ""]
    swift.append("\n\n".join(enums))
    if "swift" in outputs:
        with open(outputs["swift"], "w") as f:
            f.write("\n".join(swift) + "\n")

    header = [
        "/* Generated by tools/generate-requests.py from wayland.xml and the XML of protocols/. Do not edit.",
        " * The address of each interface table wayland-scanner writes (Swift copies C globals). */",
        "#pragma once",
        "#include <wayland-util.h>",
        "",
    ]
    for n in names:
        header.append(f"extern const struct wl_interface {n}_interface;")
        header.append(f"static inline const struct wl_interface *_Nonnull ir_{n}_interface(void) "
                      f"{{ return &{n}_interface; }}")
    header += [
        "",
        "/* Every table above, for code that meets interfaces by the name a global announces (the",
        " * wire fuzzer): the names are read from the tables themselves. */",
        "static inline const struct wl_interface *_Nonnull const *_Nonnull ir_all_interfaces(unsigned *_Nonnull count) {",
        "    static const struct wl_interface *_Nonnull const all[] = {",
    ]
    header += [f"        &{n}_interface," for n in names]
    header += [
        "    };",
        "    *count = sizeof all / sizeof all[0];",
        "    return all;",
        "}",
    ]
    if "header" in outputs:
        with open(outputs["header"], "w") as f:
            f.write("\n".join(header) + "\n")

    # The server headers for the compositor, the client headers for the test client and
    # the nested backend; both share the tables of the *-protocol.c files.
    stems = [os.path.basename(p)[:-len(".xml")] for p in sorted(protocol_xmls)]
    modulemap = ["// Generated by tools/generate-requests.py from protocols/*.xml. Do not edit."]
    for module, side in (("CWaylandProtocolsServer", "server"), ("CWaylandProtocolsClient", "client")):
        modulemap.append(f"module {module} {{")
        modulemap += [f'    header "{stem}-{side}-protocol.h"' for stem in stems]
        modulemap += ["    export *", "}"]
    modulemap += ["module CWaylandInterfaces {", '    header "wayland-interfaces.h"', "    export *", "}"]
    if "modulemap" in outputs:
        with open(outputs["modulemap"], "w") as f:
            f.write("\n".join(modulemap) + "\n")
        if "scanner" in outputs:
            directory = os.path.dirname(outputs["modulemap"])
            for path, stem in zip(sorted(protocol_xmls), stems):
                for side in ("server", "client"):
                    target = os.path.join(directory, f"{stem}-{side}-protocol.h")
                    subprocess.run([outputs["scanner"], f"{side}-header", path, target], check=True)


main()
