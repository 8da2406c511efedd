# Debian's ruby-mpi (Ruby's MPI binding) under xsim: the Ruby interpreter runs once per
# simulated rank (LD_PRELOAD of libxsim, an -xsim- option); ruby-mpi's mpi.so calls MPI_Init.
# Collectives, a ring and nonblocking calls with known results; rank 0 prints PASS.
require "mpi"
include NumRu if defined?(NumRu::NArray)
MPI.Init
w = MPI::Comm::WORLD
rank = w.rank
size = w.size
bad = []
expect = ENV["XSIM_TEST_EXPECT_SIZE"]
bad << "size #{size}, expected #{expect}" if expect && expect.to_i != size
a = NArray.float(3).fill(rank + 1.0)
s = NArray.float(3)
w.Allreduce(a, s, MPI::Op::SUM)
bad << "allreduce #{s[0]}" if s[0] != size * (size + 1) / 2.0
m = NArray.int(1).fill(rank)
mx = NArray.int(1)
w.Allreduce(m, mx, MPI::Op::MAX)
bad << "max #{mx[0]}" if mx[0] != size - 1
right = (rank + 1) % size
left = (rank - 1 + size) % size
inn = " " * 8
st = w.Sendrecv(format("%08d", rank), right, 7, inn, left, 7)
bad << "ring #{inn}" if inn != format("%08d", left)
b = rank == 0 ? "root-msg" : " " * 8
w.Bcast(b, 0)
bad << "bcast #{b}" if b != "root-msg"
g = rank == 0 ? " " * (8 * size) : nil
w.Gather(format("%08d", rank * 3), g, 0)
if rank == 0
  (0...size).each { |j| bad << "gather #{j}" if g[8 * j, 8].to_i != 3 * j }
end
at = (0...size).map { |j| format("%08d", rank * 1000 + j) }.join
ar = " " * (8 * size)
w.Alltoall(at, ar)
(0...size).each { |j| bad << "alltoall #{j}" if ar[8 * j, 8].to_i != j * 1000 + rank }
if rank != 0
  w.Isend(format("%08d", rank), 0, 9).Wait
else
  (1...size).each do |j|
    buf = " " * 8
    st = w.Irecv(buf, j, 9).Wait
    bad << "irecv #{j}" if st.source != j || buf.to_i != j
  end
end
# An invalid rank raises MPI::ERR::RANK (ruby-mpi sets MPI_ERRORS_RETURN).
begin
  w.Send("x", size + 1, 0)
  bad << "no error for rank #{size + 1}"
rescue MPI::ERR::RANK
end
bad.each { |e| puts "FAIL ruby_mpi_check: rank #{rank}: #{e}" }
f = NArray.int(1).fill(bad.size)
total = NArray.int(1)
w.Reduce(f, total, MPI::Op::SUM, 0)
puts "PASS ruby_mpi_check (#{size} ranks)" if rank == 0 && total[0] == 0
MPI.Finalize
