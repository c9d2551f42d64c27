-- wrk script: POST /api/my/blogs/{i}/posts/search as user i, with one or two common words,
-- or with the fixed query in BENCH_QUERY (no double quotes or backslashes) when it is set.
local words = {}
local fixed = os.getenv("BENCH_QUERY")
local blogs = tonumber(os.getenv("BENCH_BLOGS") or "1000")
local host = os.getenv("BENCH_HOST")

function init(args)
  for line in io.lines(os.getenv("BENCH_WORDS")) do words[#words + 1] = line end
  math.randomseed(os.time() + (args[1] and tonumber(args[1]) or 0))
end

function request()
  local i = math.random(1, blogs)
  local query = words[math.random(1, 300)]
  if math.random() < 0.5 then query = query .. " " .. words[math.random(1, 2000)] end
  if fixed and fixed ~= "" then query = fixed end
  local headers = {
    ["Host"] = host,
    ["Content-Type"] = "application/json",
    ["Cookie"] = "session=bench-session-" .. i .. "; csrf_token=bench",
    ["CSRF-Token"] = "bench",
  }
  return wrk.format("POST", "/api/my/blogs/" .. i .. "/posts/search", headers, '{"query":"' .. query .. '"}')
end

