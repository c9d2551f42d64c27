-- bench/crawl.sh's requests: each one a random line ("host<TAB>path") of the file named by
-- CRAWL_URLS, with its Host header, so one wrk run walks pages across every blog.
local requests = {}

function init(args)
  for line in io.lines(os.getenv("CRAWL_URLS")) do
    local host, path = line:match("^([^\t]+)\t(.+)$")
    if host then
      requests[#requests + 1] = wrk.format("GET", path, { Host = host })
    end
  end
  -- Each thread its own sequence: seeded from the time and this thread's table address.
  math.randomseed(os.time() + tonumber(tostring(requests):match("0x(%x+)") or "0", 16) % 100000)
end

function request()
  return requests[math.random(#requests)]
end
