// swift-tools-version:6.0
// A package that uses InputRouter as its users do: one `.package` line and the products,
// nothing from inside the library's manifest. `make test` builds and runs it, so a renamed
// product, a module that fails to build as a dependency, or a declaration that lost its
// `public` fails there. A user writes `.package(url: "https://…/InputRouter.git", from: "0.2.0")`.
import PackageDescription

let package = Package(
    name: "consumer",
    dependencies: [.package(name: "InputRouter", path: "../..")],
    targets: [
        .executableTarget(
            name: "consumer",
            dependencies: [
                .product(name: "InputRouter", package: "InputRouter"),
                .product(name: "InputRouterKeyboard", package: "InputRouter"),
                .product(name: "InputRouterWayland", package: "InputRouter"),
            ])
    ]
)
