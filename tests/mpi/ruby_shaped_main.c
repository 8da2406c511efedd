/* ruby_shaped_main: an interpreter shaped as Debian's ruby is (/usr/bin/ruby3.1): a main that
 * only calls into the interpreter's library (ruby_options, ruby_run_node of libruby), which
 * loads the script's extension module; the executable imports no MPI. Under LD_PRELOAD of
 * libxsim with an -xsim- option, xsim runs one interpreter per simulated rank: the
 * extension (ruby_shaped_ext.c, as ruby-mpi's mpi.so) calls MPI_Init in each rank, and the
 * interpreter library's globals are the rank's own (ruby_shaped_interp.c).
 * usage: ruby_shaped_main <extension.so> */
void* ruby_options(int argc, char** argv);
int ruby_run_node(void* node);

int main(int argc, char** argv) {
    return ruby_run_node(ruby_options(argc, argv));
}
