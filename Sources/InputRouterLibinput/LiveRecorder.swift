// `--record FILE`: what the backend sees, written as an ordinary `libinput record`
// file (version 1, `libinput:` event entries only) through Recording's RecordWriter, so
// a live session can be replayed by RecordingReader like any other recording.
//
// What libinput lets us describe: each device's name, sysname, vendor/product, udev
// properties, capabilities and size in mm (the reader normalises touch and absolute
// positions from it). Not recorded: evdev frames and codes (libinput does not hand them
// out), so the file is for replaying into the core, not into kernel devices.

import CLibinput
import CUdev
import InputRouter
import InputRouterRecording

#if canImport(Glibc)
    import Glibc
#endif

/// Writes a live session to a `libinput record` file (`--record FILE`) that RecordingReader
/// replays. Each event recorded is appended to a growing buffer: for debugging, not always on.
public final class LiveRecorder {
    private var writer: RecordWriter
    /// The file `write()` replaces.
    public let path: String
    /// How many events have been recorded so far.
    public private(set) var eventCount = 0

    /// Records into `path`, written by `write()` (call it on exit; nothing is written before).
    public init(path: String) {
        self.path = path
        writer = RecordWriter(libinputVersion: LiveRecorder.libinputVersion)
    }

    static let libinputVersion = "1.22 (live, InputRouter)"

    /// What the file says about one device.
    struct DeviceDescription {
        var info: LibinputDeviceInfo
        var node: String?
        var vendor: UInt32 = 0
        var product: UInt32 = 0
        /// libinput_device_get_size, in mm, when the device has one.
        var size: [Double]?
        /// udev properties, `KEY=VALUE`.
        var udevProperties: [String] = []
    }

    func addDevice(_ handle: OpaquePointer, info: LibinputDeviceInfo) -> Int {
        var description = DeviceDescription(info: info)
        var width = 0.0
        var height = 0.0
        if libinput_device_get_size(handle, &width, &height) == 0 { description.size = [width, height] }
        description.vendor = libinput_device_get_id_vendor(handle)
        description.product = libinput_device_get_id_product(handle)
        if let udevDevice = libinput_device_get_udev_device(handle) {
            description.node = udev_device_get_devnode(udevDevice).map { String(cString: $0) }
            var entry = udev_device_get_properties_list_entry(udevDevice)
            while let current = entry {
                if let name = udev_list_entry_get_name(current) {
                    let value = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
                    description.udevProperties.append("\(String(cString: name))=\(value)")
                }
                entry = udev_list_entry_get_next(current)
            }
            udev_device_unref(udevDevice)
        }
        return addDevice(description)
    }

    func addDevice(_ d: DeviceDescription) -> Int {
        let identity = DeviceIdentity(bus: 0, vendor: d.vendor, product: d.product, version: 0)
        let device = RecordedDevice(
            id: d.info.id, node: d.node ?? "/dev/input/\(d.info.sysname)", name: d.info.name,
            identity: identity, udevProperties: d.udevProperties,
            libinputCapabilities: d.info.capabilities, libinputSize: d.size, padLayout: d.info.padLayout)
        return writer.addDevice(device)
    }

    func append(_ event: InputEvent, device: Int) {
        writer.append(device: device, evdev: [], libinput: [event])
        eventCount += 1
    }

    /// The recording so far, as text.
    public func yaml() -> String { writer.yaml() }

    /// Writes the file (replacing it). Throws with the system's reason.
    public func write() throws(LibinputError) {
        let text = writer.yaml()
        guard let file = fopen(path, "w") else { throw LibinputError.errno("cannot write \(path)", errno) }
        defer { fclose(file) }
        var failed = false
        var copy = text
        copy.withUTF8 { failed = fwrite($0.baseAddress, 1, $0.count, file) != $0.count }
        if failed || fflush(file) != 0 { throw LibinputError.errno("cannot write \(path)", errno) }
    }
}
