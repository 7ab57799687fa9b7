Gem::Specification.new do |s|
  s.name = 'strong_pass'
  s.files = Dir['lib/**/*.rb']
end
