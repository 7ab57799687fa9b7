Gem::Specification.new do |spec|
  spec.name = 'fastlane-plugin-s3sync'
  spec.version = '0.3.1'
  spec.files = Dir['lib/**/*.rb'] + Dir['ext/**/*']
  spec.extensions = ['ext/s3sync/extconf.rb']
end
