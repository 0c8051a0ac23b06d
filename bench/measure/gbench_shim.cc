// gbench_shim.cc — the only C++ in storebench: a small C API over Google Benchmark.
// C++17, no ISA flags.  Google Benchmark does calibration, repetitions, statistics, filtering and
// JSON; this file only adapts its reporter and registration interfaces for the C harness.
#include "gbench_shim.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <regex>
#include <streambuf>
#include <string>
#include <vector>

namespace {

// The JSON reporter's stream: it writes to the descriptor the JSON was created with (O_EXCL), so
// the path is never opened a second time, and remembers the first failed write (a full disk) so
// the run can stop and cut the file back to its last whole point.
class FdBuf : public std::streambuf {
public:
	int fd = -1;     // the JSON's descriptor (owned by outfiles.c)
	int error = 0;   // errno of the first failed write or fsync; 0 while all went through
	off_t kept = 0;  // bytes of the file known complete: context and whole points

	FdBuf() { setp(buf, buf + sizeof buf); }

	// Drop what is buffered and cut the file back to the kept bytes, so writing can resume there.
	bool rewind()
	{
		setp(buf, buf + sizeof buf);
		error = 0;
		if (ftruncate(fd, kept) || lseek(fd, kept, SEEK_SET) < 0)
			error = errno;
		return !error;
	}

protected:
	int overflow(int c) override
	{
		if (drain())
			return traits_type::eof();
		if (c != traits_type::eof()) {
			*pptr() = traits_type::to_char_type(c);
			pbump(1);
		}
		return traits_type::not_eof(c);
	}

	int sync() override { return drain(); }

private:
	char buf[1 << 16]; // one write per point in practice

	int drain()
	{
		const char *p = pbase();
		size_t n = (size_t)(pptr() - pbase());

		while (n && !error) {
			ssize_t w = write(fd, p, n);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				error = w < 0 ? errno : EIO;
				break;
			}
			p += w;
			n -= (size_t)w;
		}
		setp(buf, buf + sizeof buf);
		return error ? -1 : 0;
	}
};

// Forwards to the console and JSON reporters, but starts each only once and finalises only at
// gbs_close, so many RunSpecifiedBenchmarks calls make one console table and one JSON document.
class TeeReporter : public benchmark::BenchmarkReporter {
public:
	benchmark::BenchmarkReporter *display = nullptr;
	std::unique_ptr<benchmark::JSONReporter> json;
	FdBuf json_buf;
	std::ostream json_out{ &json_buf };
	size_t name_width = 0;
	bool started = false;
	gbs_report_fn report = nullptr;
	void *report_ctx = nullptr;
	const char *const *counter_names = nullptr; // the running point's, by id
	size_t ncounters = 0;                       // entries of counter_names
	// A later round runs a fixed iteration count, which Google Benchmark spells into the name
	// (/iterations:N instead of /min_time:S): each point's first name is kept, so a point has
	// one name in every round and compare.py pairs them.
	bool fixed_iterations = false;
	std::map<std::string, std::string> first_min_time; // function_name -> its min_time part
	std::vector<Run> pending; // the last point's runs, until emit()
	bool hold = false;        // the JSON waits for finish(): context keys known at the end
	std::unique_ptr<Context> held_context; // the context, while held
	std::vector<Run> held;    // the points emitted, while held
	size_t held_kept = 0;     // runs of held that gbs_keep kept: the points the CSV has rows for

	bool ReportContext(const Context &context) override
	{
		if (started)
			return true;
		Context widened = context;
		widened.name_field_width = std::max(name_width, context.name_field_width);
		if (display)
			display->ReportContext(widened);
		if (json && hold)
			held_context.reset(new Context(widened));
		else if (json)
			write_context(widened);
		started = true;
		return true;
	}

	// The held context and the points kept while held, now that every context key is known;
	// points emitted after the last gbs_keep have no CSV row and are dropped.
	void release()
	{
		hold = false;
		if (!json || !held_context)
			return;
		write_context(*held_context);
		if (held_kept) {
			json->ReportRuns(std::vector<Run>(held.begin(), held.begin() + held_kept));
			json_out.flush();
			if (!json_buf.error)
				json_buf.kept = lseek(json_buf.fd, 0, SEEK_CUR);
		}
		held.clear();
		held_context.reset();
	}

	// While held: what is emitted so far is kept, so finish() writes it.
	void keep_held() { held_kept = held.size(); }

	// Runs are held until emit(): a point that is measured again (quality.h) shows and keeps
	// only its last attempt, so the console, the JSON and the CSV tell of the same measurement.
	void ReportRuns(const std::vector<Run> &runs) override
	{
		for (Run run : runs) {
			benchmark::BenchmarkName &n = run.run_name;

			if (fixed_iterations) {
				n.iterations.clear();
				n.min_time = first_min_time[n.function_name];
			} else {
				first_min_time[n.function_name] = n.min_time;
			}
			pending.push_back(run);
			forward(run);
		}
	}

	// The console shows one line per point (the median when there are repetitions, as in the
	// CSV); the JSON keeps every repetition and statistic for compare.py.
	void emit(bool keep)
	{
		std::vector<Run> shown;
		for (const Run &run : pending)
			if (run.repetitions <= 1 || (run.run_type == Run::RT_Aggregate &&
						     run.aggregate_name == "median"))
				shown.push_back(run);
		if (keep && display && !shown.empty())
			display->ReportRuns(shown);
		if (keep && json && !pending.empty() && hold)
			held.insert(held.end(), pending.begin(), pending.end());
		else if (keep && json && !pending.empty())
			json->ReportRuns(pending);
		pending.clear();
	}

	void Finalize() override {}

	// Close the document after the last kept point: whatever came after it (a point whose CSV
	// row failed, a write that failed) is cut, so the JSON holds exactly the CSV's points.
	int finish()
	{
		int held_error = 0;

		if (!started)
			return 0;
		if (hold) {
			release();
			held_error = json_buf.error; // rewind() forgets it: the held points are lost
		}
		if (display)
			display->Finalize();
		if (!json)
			return 0;
		json_out.clear();
		if (!json_buf.rewind())
			return json_buf.error;
		json->Finalize();
		json_out.flush();
		if (!json_buf.error && fsync(json_buf.fd))
			json_buf.error = errno;
		return held_error ? held_error : json_buf.error;
	}

private:
	void write_context(const Context &context)
	{
		json->ReportContext(context);
		json_out.flush();
		if (!json_buf.error)
			json_buf.kept = lseek(json_buf.fd, 0, SEEK_CUR);
	}

	void forward(const Run &run)
	{
		std::string name = run.benchmark_name();
		gbs_counter counters[GBS_MAX_COUNTERS];
		size_t n = 0;

		for (size_t id = 0; id < ncounters && n < GBS_MAX_COUNTERS; id++) {
			auto it = run.counters.find(counter_names[id]);
			if (it != run.counters.end())
				counters[n++] = { (unsigned)id, it->second.value };
		}
		gbs_run r;
		r.name = name.c_str();
		r.aggregate = run.run_type == Run::RT_Aggregate ? run.aggregate_name.c_str() : "";
		r.repetitions = run.repetitions;
		r.iterations = run.iterations;
		r.seconds = run.iterations ? run.real_accumulated_time / (double)run.iterations : 0;
		r.ncounters = n;
		r.counters = counters;
		if (report)
			report(report_ctx, &r);
	}
};

TeeReporter tee;
std::string filter = ".";

double stat_min(const std::vector<double> &v)
{
	return v.empty() ? 0 : *std::min_element(v.begin(), v.end());
}

double stat_max(const std::vector<double> &v)
{
	return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

} // namespace

extern "C" bool gbs_init(const char *const *flags, int nflags)
{
	static char name[] = "storebench";
	std::vector<char *> args{ name };
	for (int i = 0; i < nflags; i++)
		args.push_back(const_cast<char *>(flags[i])); // Initialize only reads and reorders them
	int n = (int)args.size();
	args.push_back(nullptr);
	benchmark::Initialize(&n, args.data());
	// Google Benchmark reads the CPU's description on first use and exits if it cannot (too few
	// descriptors, no /sys): let that happen now, before any result file exists.
	benchmark::CPUInfo::Get();
	if (n > 1) {
		std::fprintf(stderr, "storebench run: unknown or malformed Google Benchmark flag '%s'\n",
			     args[1]);
		return false;
	}
	filter = benchmark::GetBenchmarkFilter();
	if (filter.empty() || filter == "all")
		filter = ".";
	try {
		std::regex check(filter[0] == '-' ? filter.substr(1) : filter, std::regex::extended);
	} catch (const std::regex_error &) {
		std::fprintf(stderr, "storebench run: bad --benchmark_filter regex '%s'\n",
			     filter.c_str());
		return false;
	}
	return true;
}

extern "C" bool gbs_filter_match(const char *name)
{
	bool negate = filter[0] == '-';
	std::regex re(negate ? filter.substr(1) : filter, std::regex::extended);

	return std::regex_search(name, re) != negate;
}

extern "C" void gbs_context(const char *key, const char *value)
{
	benchmark::AddCustomContext(key, value);
}

extern "C" void gbs_open(int json_fd, bool console, size_t name_width)
{
	tee.display = console ? benchmark::CreateDefaultDisplayReporter() : nullptr;
	tee.name_width = name_width;
	tee.json_buf.fd = json_fd;
	tee.json.reset(new benchmark::JSONReporter());
	tee.json->SetOutputStream(&tee.json_out);
	tee.json->SetErrorStream(&tee.json_out);
}

extern "C" int gbs_keep(void)
{
	if (tee.hold)
		tee.keep_held();
	if (!tee.started || tee.hold)
		return 0;
	tee.json_out.flush();
	if (!tee.json_buf.error && fsync(tee.json_buf.fd))
		tee.json_buf.error = errno;
	if (!tee.json_buf.error)
		tee.json_buf.kept = lseek(tee.json_buf.fd, 0, SEEK_CUR);
	return tee.json_buf.error;
}

extern "C" size_t gbs_run_point(const gbs_point *pt, gbs_report_fn report, void *ctx)
{
	gbs_point p = *pt;
	size_t runs = 0;
	struct Counting {
		gbs_report_fn report;
		void *ctx;
		size_t *runs;
	} counting{ report, ctx, &runs };

	benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
		p.name, [p](benchmark::State &state) {
			p.begin(p.ctx);
			while (state.KeepRunningBatch(p.batch_iterations))
				state.SetIterationTime(p.batch(p.ctx));
			gbs_counter c[GBS_MAX_COUNTERS];
			size_t n = p.end(p.ctx, c);
			for (size_t i = 0; i < n; i++)
				state.counters[p.counter_names[c[i].id]] =
					benchmark::Counter(c[i].value);
		});
	b->UseManualTime();
	b->ComputeStatistics("min", stat_min);
	b->ComputeStatistics("max", stat_max);
	if (p.iterations > 0)
		b->Iterations(p.iterations);
	else if (p.min_time > 0)
		b->MinTime(p.min_time);
	if (p.repetitions > 0)
		b->Repetitions(p.repetitions);
	tee.report = [](void *c, const gbs_run *r) {
		Counting *k = static_cast<Counting *>(c);
		++*k->runs;
		k->report(k->ctx, r);
	};
	tee.report_ctx = &counting;
	tee.counter_names = p.counter_names;
	tee.ncounters = p.ncounters;
	tee.fixed_iterations = p.iterations > 0;
	benchmark::RunSpecifiedBenchmarks(&tee, ".");
	benchmark::ClearRegisteredBenchmarks();
	tee.report = nullptr;
	return runs;
}

extern "C" void gbs_emit(bool keep)
{
	tee.emit(keep);
}

extern "C" void gbs_hold(void)
{
	tee.hold = true;
}

extern "C" int gbs_close(void)
{
	return tee.finish();
}
