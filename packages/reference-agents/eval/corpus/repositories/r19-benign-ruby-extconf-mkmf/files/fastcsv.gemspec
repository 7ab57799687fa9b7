Gem::Specification.new do |s|
  s.name = 'fastcsv'
  s.extensions = %w[ext/fastcsv/extconf.rb]
end
