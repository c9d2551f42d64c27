-- wrk script: GET /api/my/blogs/{i}/posts?page=N as user i (10 posts a page).
local blogs = tonumber(os.getenv("BENCH_BLOGS") or "1000")
local pages = tonumber(os.getenv("BENCH_LIST_PAGES") or "10")
local host = os.getenv("BENCH_HOST")

function request()
  local i = math.random(1, blogs)
  local headers = { ["Host"] = host, ["Cookie"] = "session=bench-session-" .. i }
  return wrk.format("GET", "/api/my/blogs/" .. i .. "/posts?page=" .. math.random(1, pages), headers)
end

