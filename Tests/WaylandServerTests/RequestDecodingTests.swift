// The request enums generated from the protocol XML (tools/generate-requests.py): each
// opcode decodes to the request the XML puts at that position, with its arguments named
// and typed, and the version each request appeared in. Expected values are the XML's.
import CWaylandServer
import Testing

@testable import InputRouterWayland

@Suite struct RequestDecodingTests {
    /// Decodes `arguments` as a request with `opcode` of `R`'s interface.
    func decode<R: WaylandRequest>(_: R.Type, _ opcode: UInt32, _ arguments: [wl_argument]) -> R? {
        var arguments = arguments
        return arguments.withUnsafeMutableBufferPointer { R(opcode: opcode, Arguments(raw: $0.baseAddress!)) }
    }

    @Test func xdgToplevelResizeIsOpcodeSixWithSeatSerialAndEdges() {
        // An address only: the decoder hands the resource on without reading it.
        let seat = UnsafeMutablePointer<wl_object>(bitPattern: 0x1000)
        let request = decode(
            XdgToplevelRequest.self, 6, [wl_argument(o: seat), wl_argument(u: 42), wl_argument(u: 10)])
        let expected = XdgToplevelRequest.resize(
            seat: UnsafeMutablePointer<wl_resource>(bitPattern: 0x1000), serial: 42, edges: 10)
        #expect(request == expected)
    }

    @Test func stringsAndFixedNumbersAreDecoded() {
        let title = "a title".withCString { decode(XdgToplevelRequest.self, 2, [wl_argument(s: $0)]) }
        #expect(title == .setTitle(title: "a title"))
        // 24.8 fixed point: 384 is 1.5.
        let hint = decode(ZwpLockedPointerV1Request.self, 1, [wl_argument(f: 384), wl_argument(f: -256)])
        #expect(hint == .setCursorPositionHint(surfaceX: 1.5, surfaceY: -1))
    }

    @Test func perFrameSurfaceRequestsKeepTheirOpcodes() {
        #expect(
            decode(WlSurfaceRequest.self, 1, [wl_argument(o: nil), wl_argument(i: -3), wl_argument(i: 4)])
                == .attach(buffer: nil, x: -3, y: 4))
        #expect(decode(WlSurfaceRequest.self, 3, [wl_argument(n: 77)]) == .frame(callback: 77))
        #expect(decode(WlSurfaceRequest.self, 6, []) == .commit)
        #expect(
            decode(WlSurfaceRequest.self, 9, [1, 2, 3, 4].map { wl_argument(i: $0) })
                == .damageBuffer(x: 1, y: 2, width: 3, height: 4))
    }

    @Test func anOpcodePastTheLastRequestDecodesToNothing() {
        // xdg_toplevel has 14 requests (0 to 13), wl_surface 11, wl_seat 4.
        #expect(decode(XdgToplevelRequest.self, 13, []) == .setMinimized)
        #expect(decode(XdgToplevelRequest.self, 14, []) == nil)
        #expect(decode(WlSurfaceRequest.self, 11, []) == nil)
        #expect(decode(WlSeatRequest.self, 4, []) == nil)
        #expect(decode(WlSeatRequest.self, UInt32.max, []) == nil)
    }

    @Test func sinceIsTheVersionTheXMLGives() {
        #expect(WlSurfaceRequest.damageBuffer(x: 0, y: 0, width: 0, height: 0).since == 4)
        #expect(WlSurfaceRequest.offset(x: 0, y: 0).since == 5)
        #expect(WlSurfaceRequest.commit.since == 1)
        #expect(WlSeatRequest.release.since == 5)
        #expect(XdgPopupRequest.reposition(positioner: nil, token: 0).since == 3)
        #expect(XdgPositionerRequest.setReactive.since == 3)
        #expect(ZwlrLayerSurfaceV1Request.setLayer(layer: 0).since == 2)
        #expect(ZwpPointerGesturesV1Request.getHoldGesture(id: 0, pointer: nil).since == 3)
    }

    @Test func interfacesAreTheScannerTables() {
        #expect(String(cString: UnsafePointer<wl_interface>.xdgToplevel.pointee.name) == "xdg_toplevel")
        #expect(UnsafePointer<wl_interface>.wlSurface.pointee.method_count == 11)
        #expect(XdgToplevelRequest.interface == .xdgToplevel)
    }
}
