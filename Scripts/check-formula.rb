# Runs a Homebrew formula's `install` and `test do` on Linux, without Homebrew, with the few Formula
# helpers receipt-explorer's formula uses (Scripts/check-release.sh calls it):
#
#   ruby Scripts/check-formula.rb FORMULA SOURCE_DIR BINARY PREFIX
#
# `install` runs in SOURCE_DIR (the extracted source archive), so every file it installs must be in
# that archive. Its `swift build` is the macOS build, which cannot run here: the release binary
# BINARY stands in for its product. `test do` then runs against what `install` put in PREFIX.
require "fileutils"
require "pathname"

formula_path, source_dir, binary, prefix = ARGV
abort "usage: ruby Scripts/check-formula.rb FORMULA SOURCE_DIR BINARY PREFIX" unless prefix

class Pathname
  # Homebrew's Pathname#install: copy each file here, under its own name.
  def install(*sources)
    mkpath
    sources.flatten.each do |source|
      raise "install: #{source} is not in the source archive" unless File.exist?(source)
      FileUtils.cp(source, join(File.basename(source)), preserve: true)
    end
  end
end

class Formula
  class << self
    attr_reader :fields, :dependencies, :test_block

    def inherited(subclass)
      super
      $formula_class = subclass
    end

    %i[desc homepage url sha256 license].each do |field|
      define_method(field) { |value| (@fields ||= {})[field] = value }
    end

    def depends_on(dependency) = (@dependencies ||= []) << dependency
    def test(&block) = @test_block = block
    def [](name) = Struct.new(:opt_lib).new(Pathname("/opt/homebrew/opt/#{name}/lib"))
  end

  attr_reader :commands

  def initialize(prefix) = (@prefix = Pathname(prefix); @commands = [])
  def prefix = @prefix
  def bin = @prefix/"bin"
  def man1 = @prefix/"share/man/man1"
  def pkgshare = @prefix/"share/receipt-explorer"
  def testpath = @testpath ||= Pathname(Dir.mktmpdir)
  def version = self.class.fields.fetch(:url)[/-(\d+\.\d+\.\d+)\.tar\.gz\z/, 1]

  # Homebrew's locations for each shell (generate_completions_from_executable's defaults).
  def generate_completions_from_executable(executable, *arguments)
    { "bash" => prefix/"etc/bash_completion.d/receipt-explorer",
      "zsh" => prefix/"share/zsh/site-functions/_receipt-explorer",
      "fish" => prefix/"share/fish/vendor_completions.d/receipt-explorer.fish" }.each do |shell, path|
      path.dirname.mkpath
      output = IO.popen([executable.to_s, *arguments, shell], &:read)
      raise "#{executable} #{arguments.join(" ")} #{shell} failed" unless $?.success?
      path.write(output)
    end
  end

  def system(*command)
    @commands << command
    raise "unexpected command #{command.inspect}" unless command.first == "swift" && command[1] == "build"
    FileUtils.mkdir_p(".build/release")
    FileUtils.cp($binary, ".build/release/receipt-explorer")
  end

  def shell_output(command, status = 0)
    output = `#{command}`
    assert_equal status, $?.exitstatus, "exit status of #{command}"
    output
  end

  def assert_match(expected, actual)
    found = expected.is_a?(Regexp) ? actual.match?(expected) : actual.include?(expected)
    raise "expected #{expected.inspect} in:\n#{actual}" unless found
  end

  def assert_equal(expected, actual, what = "value")
    raise "#{what}: expected #{expected.inspect}, got #{actual.inspect}" unless expected == actual
  end
end

require "tmpdir"
$binary = File.expand_path(binary)
prefix = File.expand_path(prefix)
paths_before = ENV.fetch("PKG_CONFIG_PATH", "")
def ENV.prepend_path(key, path) = self[key] = [path.to_s, self[key]].compact.reject(&:empty?).join(File::PATH_SEPARATOR)

load formula_path
formula_class = $formula_class or abort "#{formula_path} defines no Formula"
formula = formula_class.new(prefix)

deps = formula_class.dependencies
raise "no depends_on \"openssl@3\"" unless deps.include?("openssl@3")
raise "no depends_on \"pkg-config\" => :build" unless deps.include?({ "pkg-config" => :build })
puts "formula: depends on #{deps.map(&:inspect).join(", ")}"

Dir.chdir(source_dir) { formula.install }
build = formula.commands.find { |command| command[0, 2] == %w[swift build] }
raise "install runs no swift build" unless build
%w[--disable-sandbox release].each { |flag| raise "swift build lacks #{flag}" unless build.include?(flag) }
pkg_config = ENV.fetch("PKG_CONFIG_PATH", "")
raise "PKG_CONFIG_PATH does not lead with openssl@3" unless pkg_config.start_with?("/opt/homebrew/opt/openssl@3/lib/pkgconfig") && pkg_config != paths_before
puts "formula: install ran #{build.join(" ")} (PKG_CONFIG_PATH=#{pkg_config}) and installed:"
Dir.glob("**/*", base: prefix).select { |path| File.file?(File.join(prefix, path)) }.sort.each { |path| puts "  #{path}" }

formula.instance_exec(&formula_class.test_block)
puts "formula: test do passed (version #{formula.version})"
