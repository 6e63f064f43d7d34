// Popups and the windows they belong to, as a real client sees them: its toplevel stays
// activated while a menu has the keyboard; touch outside dismisses the menu; a menu opened
// from the keyboard (citing a key press serial) stays open.
import InputRouter
import Testing

@testable import InputRouterWayland

@Suite(.serialized) struct PopupFocusTests {
    static let menu = ["--toplevel", "win", "200x100", "--popup-on-press", "menu", "win", "10,10", "80x40"]

    /// Opens the menu with a click in win (the menu covers layout 50,50 to 130,90).
    static func openMenu(_ h: ServerHarness, _ c: ClientProcess, at p: (Double, Double) = (90, 90)) -> [String] {
        h.warp(p.0, p.1)
        h.button(.pressed)
        h.wait(for: c, line: "mapped menu")
        h.button(.released)
        return h.settle(c)
    }

    @Test func toplevelStaysActivatedWhileItsPopupHasTheKeyboard() throws {
        let h = try ServerHarness()
        let c = try h.probe(Self.menu)
        h.wait(for: c, line: "mapped win")
        var seen = h.settle(c)
        #expect(seen.last { $0.hasPrefix("configure win") } == "configure win 0x0 [activated]")
        let opened = Self.openMenu(h, c)
        #expect(opened.contains("keyboard.enter menu keys=[]"))
        seen += opened
        // A click inside the menu: the toplevel of its chain is activated already.
        h.warp(60, 60)
        h.button(.pressed)
        h.button(.released)
        let inMenu = h.settle(c)
        #expect(inMenu.contains("pointer.button 272 pressed"))
        seen += inMenu
        // Typing reaches the menu.
        h.key(30, .pressed)
        h.key(30, .released)
        #expect(h.settle(c) == ["keyboard.key 30 pressed", "keyboard.key 30 released"])
        // A click elsewhere closes it; the keyboard returns to win.
        h.warp(600, 600)
        h.button(.pressed)
        h.button(.released)
        let closed = h.settle(c)
        #expect(closed.contains("popup.done menu"))
        #expect(closed.contains("keyboard.enter win keys=[]"))
        seen += closed
        // After the initial configure (before mapping: not activated), every configure win
        // received said activated: it never lost it to its own menu.
        let configures = seen.filter { $0.hasPrefix("configure win") }
        #expect(configures.first == "configure win 0x0 []")
        #expect(configures.count >= 2)
        #expect(configures.dropFirst().allSatisfy { $0 == "configure win 0x0 [activated]" }, "\(configures)")
        #expect(h.server.activatedToplevel == h.server.seat.keyboardFirstResponder)
    }

    @Test func activatedMovesToTheOtherWindowAndBack() throws {
        let h = try ServerHarness()
        let a = try h.probe(Self.menu)
        h.wait(for: a, line: "mapped win")
        let b = try h.probe(["--toplevel", "other", "100x100"]) // at (72, 72), takes the focus
        h.wait(for: b, line: "mapped other")
        #expect(h.settle(a).last { $0.hasPrefix("configure win") } == "configure win 0x0 []")
        _ = h.settle(b)
        // Clicking win where other does not cover it activates it; its menu opens and it
        // stays activated.
        let opened = Self.openMenu(h, a, at: (220, 60))
        #expect(opened.filter { $0.hasPrefix("configure win") } == ["configure win 0x0 [activated]"])
        #expect(h.settle(b).contains("configure other 0x0 []"))
        // Dismissed by a click on the other client: the click is consumed; win keeps it.
        h.warp(160, 160)
        h.button(.pressed)
        h.button(.released)
        let closed = h.settle(a)
        #expect(closed.contains("popup.done menu"))
        #expect(!closed.contains { $0.hasPrefix("configure win") })
        #expect(!h.settle(b).contains { $0.hasPrefix("configure other") })
    }

    @Test func touchDownOutsideThePopupChainDismissesIt() throws {
        let h = try ServerHarness()
        let c = try h.probe(Self.menu)
        h.wait(for: c, line: "mapped win")
        _ = h.settle(c)
        _ = Self.openMenu(h, c)
        let (x, y) = h.touchPoint(600, 600) // no surface of this client there
        h.touch(.touchDown(slot: 0, x: x, y: y))
        h.touch(.touchUp(slot: 0))
        let lines = h.settle(c)
        #expect(lines.contains("popup.done menu"))
        #expect(!lines.contains { $0.hasPrefix("touch.") })
    }

    @Test func touchDownInsideThePopupKeepsIt() throws {
        let h = try ServerHarness()
        let c = try h.probe(Self.menu)
        h.wait(for: c, line: "mapped win")
        _ = h.settle(c)
        _ = Self.openMenu(h, c)
        let (x, y) = h.touchPoint(60, 60) // inside the menu
        h.touch(.touchDown(slot: 0, x: x, y: y))
        h.touch(.touchUp(slot: 0))
        let lines = h.settle(c)
        #expect(lines == ["touch.down menu 0 10.00 10.00", "touch.frame", "touch.up 0", "touch.frame"])
    }

    @Test func menuOpenedFromTheKeyboardStaysOpen() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "200x100", "--popup-on-key", "menu", "win", "10,10", "80x40"])
        h.key(68, .pressed) // F10, with the keyboard on win
        h.wait(for: c, line: "mapped menu")
        h.key(68, .released)
        let lines = h.settle(c)
        #expect(!lines.contains("popup.done menu"))
        // The menu has the keyboard (F10, still down, was this client's) and gets the release.
        #expect(lines.contains("keyboard.enter menu keys=[68]"))
        #expect(lines.contains("keyboard.key 68 released"))
        #expect(h.server.seat.popupGrabStack.count == 1)
    }

    @Test func keyPressSerialsAreRecordedForTheirClientOnly() throws {
        let h = try ServerHarness()
        let c = try h.mappedProbe(["--toplevel", "win", "200x100"])
        var serial: UInt32 = 0
        h.server.deliveryObserver = { d, _ in if case .key(_, _, _, _, .pressed, let s) = d { serial = s } }
        h.key(30, .pressed)
        h.server.deliveryObserver = nil
        let win = try #require(h.server.seat.keyboardFirstResponder)
        let owner = try #require(h.server.router.tree.client(of: win))
        #expect(h.server.seat.serialEntry(serial, client: owner, for: .popupGrab)?.action == .keyPress)
        #expect(h.server.seat.serialEntry(serial, client: ClientID(index: owner.index + 1), for: .popupGrab) == nil)
        // A key press may open a menu, never start an interactive move.
        #expect(h.server.seat.serialEntry(serial, client: owner, for: .move) == nil)
    }
}
