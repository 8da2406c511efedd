#!/bin/sh
# A stand-in for ssh as Open MPI's launch agent (--mca plm_rsh_agent): "log in" to the host
# named first and run the rest of the command -- here, on this machine. Open MPI then treats
# the second host name as a remote node: it starts an orted there through this agent, and the
# daemons and the application talk over TCP as across real hosts.
shift
exec sh -c "$*"
