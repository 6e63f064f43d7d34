// `wp_cursor_shape_manager_v1` (cursor-shape-v1, version 2): a client names its cursor
// ("text", "pointer", "ew-resize"…) instead of drawing it in a surface, and the compositor
// draws the named image from the system's cursor theme (Rendering's XCursorTheme). GTK 4,
// Qt 6 and Chromium ask for it when the compositor offers it.
//
// A shape is chosen by the same rule as `wl_pointer.set_cursor` (SeatObjects.swift): the
// request must cite the newest `wl_pointer.enter` of the pointer's seat, sent to this
// client (`Seat.serialEntry(_:client:for: .setCursor)`), else it is ignored. What a client
// chose on a seat is one thing, a surface or a shape (`ClientSeatState.cursor`), so the
// later request replaces the earlier, and the renderer shows it while the pointer focus is
// one of that client's surfaces (`WaylandServer.clientCursor(on:)`).
//
// A tablet tool's device follows the same rule with the tool's `proximity_in` (the seat's
// newest, sent to this client: `.setToolCursor`). The server draws no cursor for tools, so
// the shape is kept on the tool object and not shown (TabletManager.swift).
//
// A device whose `wl_pointer` or tool object is gone, or whose seat has no pointer any more,
// is inert: its `set_shape` is still checked for a valid shape (the protocol error) and
// otherwise ignored.
import CWaylandProtocolsServer
import CWaylandServer
import InputRouter

/// A named cursor of cursor-shape-v1's `shape` enum; the raw value is the wire value.
/// The names are the CSS cursor names the protocol takes them from (`cssName`).
public enum CursorShape: UInt32, CaseIterable, Sendable {
    /// The compositor picks a visible shape (this server: `default`). Since version 2.
    case auto = 0
    case `default`, contextMenu, help, pointer, progress, wait, cell, crosshair, text, verticalText
    case alias, copy, move, noDrop, notAllowed, grab, grabbing
    case eResize, nResize, neResize, nwResize, sResize, seResize, swResize, wResize
    case ewResize, nsResize, neswResize, nwseResize, colResize, rowResize
    case allScroll, zoomIn, zoomOut
    /// No cursor image is shown. Since version 2.
    case none

    /// The CSS name (`context-menu`, `ew-resize`): the name cursor themes file it under.
    public var cssName: String {
        switch self {
        case .auto: "auto"
        case .default: "default"
        case .contextMenu: "context-menu"
        case .help: "help"
        case .pointer: "pointer"
        case .progress: "progress"
        case .wait: "wait"
        case .cell: "cell"
        case .crosshair: "crosshair"
        case .text: "text"
        case .verticalText: "vertical-text"
        case .alias: "alias"
        case .copy: "copy"
        case .move: "move"
        case .noDrop: "no-drop"
        case .notAllowed: "not-allowed"
        case .grab: "grab"
        case .grabbing: "grabbing"
        case .eResize: "e-resize"
        case .nResize: "n-resize"
        case .neResize: "ne-resize"
        case .nwResize: "nw-resize"
        case .sResize: "s-resize"
        case .seResize: "se-resize"
        case .swResize: "sw-resize"
        case .wResize: "w-resize"
        case .ewResize: "ew-resize"
        case .nsResize: "ns-resize"
        case .neswResize: "nesw-resize"
        case .nwseResize: "nwse-resize"
        case .colResize: "col-resize"
        case .rowResize: "row-resize"
        case .allScroll: "all-scroll"
        case .zoomIn: "zoom-in"
        case .zoomOut: "zoom-out"
        case .none: "none"
        }
    }

    /// The shape of a CSS name (`CursorShape(cssName: "ew-resize")`), nil for another name.
    public init?(cssName: String) {
        guard let shape = CursorShape.allCases.first(where: { $0.cssName == cssName }) else { return nil }
        self = shape
    }
}

final class CursorShapeManagerObject: WaylandObject {
    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WpCursorShapeManagerV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // devices made with it live on
        case .getPointer(let cursorShapeDevice, let pointer): // get_pointer(cursor_shape_device, pointer)
            let pointer = pointer.object(as: PointerObject.self)
            server.createObject(.wpCursorShapeDeviceV1, client: owner, version: version, id: cursorShapeDevice) {
                CursorShapeDeviceObject(server: server, owner: owner, resource: $0, pointer: pointer, tool: nil)
            }
        // get_tablet_tool_v2(cursor_shape_device, tablet_tool)
        case .getTabletToolV2(let cursorShapeDevice, let tabletTool):
            let tool = tabletTool.object(as: TabletToolObject.self)
            server.createObject(.wpCursorShapeDeviceV1, client: owner, version: version, id: cursorShapeDevice) {
                CursorShapeDeviceObject(server: server, owner: owner, resource: $0, pointer: nil, tool: tool)
            }
        }
    }
}

/// `wp_cursor_shape_device_v1`: the cursor shape of one `wl_pointer` or one tablet tool.
final class CursorShapeDeviceObject: WaylandObject {
    /// The device it sets the shape of (one of the two); nil once that object is gone.
    private weak var pointer: PointerObject?
    private weak var tool: TabletToolObject?

    init(
        server: WaylandServer, owner: ClientState, resource: ResourcePointer, pointer: PointerObject?,
        tool: TabletToolObject?
    ) {
        self.pointer = pointer
        self.tool = tool
        super.init(server: server, owner: owner, resource: resource)
    }

    override func request(_ opcode: UInt32, _ args: Arguments) {
        guard let request: WpCursorShapeDeviceV1Request = decode(opcode, args) else { return }
        switch request {
        case .destroy: destroyResource() // the shape chosen stays
        case .setShape(let serial, let shape): // set_shape(serial, shape)
            guard let shape = validShape(shape) else { return }
            if let pointer {
                guard pointer.seat.presentCapabilities.contains(.pointer), pointer.mayChooseCursor(citing: serial)
                else { return }
                owner.onSeat(pointer.seatIndex).cursor = .shape(shape)
            } else if let tool {
                guard tool.mayChooseCursor(citing: serial) else { return }
                tool.cursor = .shape(shape)
            }
        }
    }

    /// The shape of wire value `value`, or nil after posting `invalid_shape`: a value outside
    /// the enum, or one added in a later version than this object's.
    private func validShape(_ value: UInt32) -> CursorShape? {
        guard let shape = CursorShape(rawValue: value) else {
            postError(
                WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue,
                "\(value) is not a cursor shape")
            return nil
        }
        let since: Int32 =
            switch shape {
            case .auto: WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_AUTO_SINCE_VERSION
            case .none: WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_NONE_SINCE_VERSION
            default: 1
            }
        guard version >= since else {
            postError(
                WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE.rawValue,
                "the shape '\(shape.cssName)' needs version \(since); this wp_cursor_shape_device_v1 is version \(version)"
            )
            return nil
        }
        return shape
    }
}

/// What a client chose its cursor to be on one seat's pointer, or on one tablet tool: the
/// newer of `set_cursor` and `set_shape` (each replaces the other).
enum ChosenCursor {
    /// `set_cursor`: a surface with the cursor role and its hotspot; nil: no cursor shown.
    case surface(Surface?, hotspotX: Int32, hotspotY: Int32)
    /// `wp_cursor_shape_device_v1.set_shape`.
    case shape(CursorShape)

    /// The surface, for `set_cursor`'s choice.
    var surface: Surface? {
        if case .surface(let s, _, _) = self { return s }
        return nil
    }
}

/// What the client with a seat's pointer focus asked its cursor to be there
/// (`WaylandServer.clientCursor(on:)`).
public enum ClientCursor: Equatable {
    /// A `wl_surface` with the cursor role (`wl_pointer.set_cursor`), drawn with its
    /// hotspot at the pointer.
    case surface(UnsafeMutablePointer<wl_resource>, hotspotX: Int32, hotspotY: Int32)
    /// No cursor: `set_cursor` with a null surface, or the shape `none`.
    case hidden
    /// A shape by name (`wp_cursor_shape_device_v1.set_shape`), never `none`; `auto`
    /// is left to the renderer.
    case shape(CursorShape)
}
