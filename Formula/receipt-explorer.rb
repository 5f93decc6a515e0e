# Homebrew formula for receipt-explorer (a tap's Formula/ directory holds it).
#
# This committed copy is the template: Scripts/release.sh writes OUTDIR/Formula/receipt-explorer.rb
# with the homepage, url and sha256 lines replaced (url and sha256: the source archive it made;
# Homebrew reads the version from the archive's name). Publish the archive at that url and that
# formula in a tap.
class ReceiptExplorer < Formula
  desc "Explore, explain and verify App Store receipts and StoreKit 2 JWS, byte by byte"
  homepage "@HOMEPAGE_URL@"
  url "@SOURCE_ARCHIVE_URL@"
  sha256 "@SOURCE_ARCHIVE_SHA256@"
  license "Apache-2.0"

  # Package.swift's swift-tools-version is 6.0 and it targets macOS 13 (Swift Regex, Duration; no API newer:
  # docs/manual/platforms.md).
  depends_on xcode: ["16.0", :build]
  depends_on "pkg-config" => :build
  depends_on macos: :ventura
  depends_on "openssl@3"
  # ncurses comes with the macOS SDK (built with wide-character support).

  def install
    # openssl@3 is keg-only: SwiftPM's COpenSSL module finds it through its openssl.pc.
    ENV.prepend_path "PKG_CONFIG_PATH", Formula["openssl@3"].opt_lib/"pkgconfig"
    # SwiftPM's own sandbox cannot nest inside Homebrew's build sandbox.
    system "swift", "build", "-c", "release", "--disable-sandbox", "--product", "receipt-explorer"
    bin.install ".build/release/receipt-explorer"
    man1.install "docs/receipt-explorer.1"
    generate_completions_from_executable(bin/"receipt-explorer", "--generate-completion-script")
    # Signed by a TEST-only PKI: something to open right away, and what `test do` reads.
    pkgshare.install "samples/typical.receipt", "samples/pki/test-root.cer"
    (pkgshare/"jws").install "samples/jws/transaction.jws", "samples/pki/test-ec-root.cer"
  end

  test do
    assert_match "receipt-explorer #{version} (OpenSSL 3.", shell_output("#{bin}/receipt-explorer --version")

    dump = shell_output("#{bin}/receipt-explorer dump #{pkgshare}/typical.receipt")
    assert_match "# typical.receipt: raw DER/BER, 7,686 bytes; a PKCS#7 App Store receipt", dump
    assert_match "# 1,320 elements; 0 errors, 0 der, 0 warnings, 0 info", dump

    verified = shell_output("#{bin}/receipt-explorer verify --quiet #{pkgshare}/jws/transaction.jws " \
                            "--root #{pkgshare}/jws/test-ec-root.cer --bundle-id com.example.receiptexplorer")
    assert_equal "VALID — valid, anchored at a root you supplied\n", verified
    # Without the TEST root the chain does not verify: exit status 1.
    shell_output("#{bin}/receipt-explorer verify --quiet #{pkgshare}/typical.receipt", 1)
  end
end
