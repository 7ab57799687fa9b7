Gem::Specification.new do |s|
  s.name = 'atlas-client'
  s.version = '1.2.0'
  s.extensions << 'ext/extconf.rb'
end
