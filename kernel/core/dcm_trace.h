/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dcm - tracepoints of the cycle (events/dcm/ in tracefs).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dcm

#if !defined(_DCM_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _DCM_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(dcm_cycle_start,
	    TP_PROTO(int index, u64 cycle, u32 time, u64 latency_ns),
	    TP_ARGS(index, cycle, time, latency_ns),
	    TP_STRUCT__entry(__field(int, index)
			     __field(u64, cycle)
			     __field(u32, time)
			     __field(u64, latency_ns)),
	    TP_fast_assign(__entry->index = index;
			   __entry->cycle = cycle;
			   __entry->time = time;
			   __entry->latency_ns = latency_ns;),
	    TP_printk("dcm%d cycle=%llu time=%u latency_ns=%llu", __entry->index,
		      __entry->cycle, __entry->time, __entry->latency_ns)
);

TRACE_EVENT(dcm_cycle_end,
	    TP_PROTO(int index, u64 cycle, u64 work_ns),
	    TP_ARGS(index, cycle, work_ns),
	    TP_STRUCT__entry(__field(int, index)
			     __field(u64, cycle)
			     __field(u64, work_ns)),
	    TP_fast_assign(__entry->index = index;
			   __entry->cycle = cycle;
			   __entry->work_ns = work_ns;),
	    TP_printk("dcm%d cycle=%llu work_ns=%llu", __entry->index, __entry->cycle,
		      __entry->work_ns)
);

TRACE_EVENT(dcm_cycle_late_buses,
	    TP_PROTO(int index, u64 cycle, u32 late),
	    TP_ARGS(index, cycle, late),
	    TP_STRUCT__entry(__field(int, index)
			     __field(u64, cycle)
			     __field(u32, late)),
	    TP_fast_assign(__entry->index = index;
			   __entry->cycle = cycle;
			   __entry->late = late;),
	    TP_printk("dcm%d cycle=%llu late=%#x", __entry->index, __entry->cycle,
		      __entry->late)
);

/*
 * A lane's exchange ended: its bus, its @rank in the cycle's queue (0: the
 * first queued), @wake_ns from the cycle's queueing to the lane's start,
 * @exchange_ns from its start to its end.
 */
TRACE_EVENT(dcm_lane_exchanged,
	    TP_PROTO(int index, u64 cycle, u32 bus, u32 rank, u64 wake_ns, u64 exchange_ns),
	    TP_ARGS(index, cycle, bus, rank, wake_ns, exchange_ns),
	    TP_STRUCT__entry(__field(int, index)
			     __field(u64, cycle)
			     __field(u32, bus)
			     __field(u32, rank)
			     __field(u64, wake_ns)
			     __field(u64, exchange_ns)),
	    TP_fast_assign(__entry->index = index;
			   __entry->cycle = cycle;
			   __entry->bus = bus;
			   __entry->rank = rank;
			   __entry->wake_ns = wake_ns;
			   __entry->exchange_ns = exchange_ns;),
	    TP_printk("dcm%d cycle=%llu bus=%u rank=%u wake_ns=%llu exchange_ns=%llu",
		      __entry->index, __entry->cycle, __entry->bus, __entry->rank,
		      __entry->wake_ns, __entry->exchange_ns)
);

/*
 * The cycle joined its lanes (@buses, by bus index): @join_ns from the end
 * of the last lane's exchange to the cycle going on (0 when it did not
 * sleep, or when a lane was late).
 */
TRACE_EVENT(dcm_cycle_joined,
	    TP_PROTO(int index, u64 cycle, u32 buses, u64 join_ns),
	    TP_ARGS(index, cycle, buses, join_ns),
	    TP_STRUCT__entry(__field(int, index)
			     __field(u64, cycle)
			     __field(u32, buses)
			     __field(u64, join_ns)),
	    TP_fast_assign(__entry->index = index;
			   __entry->cycle = cycle;
			   __entry->buses = buses;
			   __entry->join_ns = join_ns;),
	    TP_printk("dcm%d cycle=%llu buses=%#x join_ns=%llu", __entry->index,
		      __entry->cycle, __entry->buses, __entry->join_ns)
);

#endif /* _DCM_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH core
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE dcm_trace
#include <trace/define_trace.h>
