require 'fastcsv/fastcsv'
module FastCSV
  def self.git_sha = `git rev-parse HEAD`.strip
end
