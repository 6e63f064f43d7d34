// Generates the protocol code at build time from protocols/*.xml instead of committing it:
// for CWaylandProtocols, Debian's wayland-scanner writes each protocol's tables (C) and,
// run by tools/generate-requests.py in the step that writes the module map and the header
// naming every interface table, its server and client headers (a header alone is no
// step's input, so the build would not order it before the Swift that imports it); for
// InputRouterWayland, generate-requests.py writes the typed
// request enums (with libwayland's wayland.xml). C sources and headers from a plugin need
// the package's `experimentalCGen` feature (swift-tools-version 6.3).
import Foundation
import PackagePlugin

@main struct WaylandProtocols: BuildToolPlugin {
    let scanner = URL(fileURLWithPath: "/usr/bin/wayland-scanner")
    let python = URL(fileURLWithPath: "/usr/bin/python3")
    let coreXML = URL(fileURLWithPath: "/usr/share/wayland/wayland.xml")

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let generator = package.appending(path: "tools/generate-requests.py")
        let protocols = try FileManager.default
            .contentsOfDirectory(at: package.appending(path: "protocols"), includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "xml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let out = context.pluginWorkDirectoryURL
        let xmlArguments = [coreXML.path] + protocols.map(\.path)

        switch target.name {
        case "InputRouterWayland":
            let swift = out.appending(path: "ProtocolRequests.swift")
            return [
                .buildCommand(
                    displayName: "Generating typed requests from protocols/*.xml", executable: python,
                    arguments: [generator.path, "--swift", swift.path] + xmlArguments,
                    inputFiles: [generator, coreXML] + protocols, outputFiles: [swift])
            ]
        default:
            // Public headers and the module map must be in `include` of the plugin's output.
            let include = out.appending(path: "include")
            try FileManager.default.createDirectory(at: include, withIntermediateDirectories: true)
            var commands: [Command] = protocols.map { xml in
                let code = out.appending(path: "\(xml.deletingPathExtension().lastPathComponent)-protocol.c")
                return .buildCommand(
                    displayName: "wayland-scanner private-code \(xml.lastPathComponent)", executable: scanner,
                    arguments: ["private-code", xml.path, code.path], inputFiles: [xml], outputFiles: [code])
            }
            let header = include.appending(path: "wayland-interfaces.h")
            let modulemap = include.appending(path: "module.modulemap")
            let scannerHeaders = protocols.flatMap { xml in
                let stem = xml.deletingPathExtension().lastPathComponent
                return ["server", "client"].map { include.appending(path: "\(stem)-\($0)-protocol.h") }
            }
            commands.append(
                .buildCommand(
                    displayName: "Generating the protocol headers and module map", executable: python,
                    arguments: [
                        generator.path, "--header", header.path, "--modulemap", modulemap.path,
                        "--scanner", scanner.path,
                    ] + xmlArguments,
                    inputFiles: [generator, coreXML, scanner] + protocols,
                    outputFiles: [header, modulemap] + scannerHeaders))
            return commands
        }
    }
}
