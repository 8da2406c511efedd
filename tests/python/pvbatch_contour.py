# pvbatch_contour: ParaView's pvbatch (Debian's paraview, built with MPI) runs this script on
# rank 0 while the other ranks serve it: a Wavelet source split over the ranks, a Contour
# filter, an integration fetched to rank 0, and a parallel writer whose summary file lists
# the pieces rank 0 learns of through VTK's global controller (an MPI_Reduce). Checked
# against a native run (mpirun -np 2 and -np 4 pvbatch).
import os
import shutil
import sys
import tempfile

from paraview import servermanager as sm
from paraview.simple import Contour, IntegrateVariables, SaveData, Wavelet

NAME = "pvbatch_contour"
# Native Open MPI runs of this script: contour points and cells per number of ranks (the
# pieces' shared points are counted once per piece); the area does not depend on it.
NATIVE = {1: (27773, 52964), 2: (29248, 54922), 4: (31106, 57674)}
AREA = 17567.0009

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


ranks = sm.vtkProcessModule.GetProcessModule().GetNumberOfLocalPartitions()
expected = int(os.environ.get("XSIM_TEST_EXPECT_SIZE", ranks))
check(ranks == expected, "pvbatch sees %d ranks, expected %d" % (ranks, expected))
w = Wavelet()
w.WholeExtent = [-20, 20, -20, 20, -20, 20]
c = Contour(Input=w)
c.ContourBy = ["POINTS", "RTData"]
c.Isosurfaces = [100.0, 150.0, 200.0]
c.ComputeScalars = 1
c.UpdatePipeline()
info = c.GetDataInformation()
points, cells = info.GetNumberOfPoints(), info.GetNumberOfCells()
print("INFO %s ranks %d contour points %d cells %d" % (NAME, ranks, points, cells))
if ranks in NATIVE:
    check((points, cells) == NATIVE[ranks], "contour %d points %d cells, natively %d %d" % ((points, cells) + NATIVE[ranks]))
check(["%.6g" % b for b in info.GetBounds()] == ["-20", "20"] * 3, "bounds %s" % (info.GetBounds(),))
low, high = c.PointData["RTData"].GetRange()
check(abs(low - 100.0) < 1e-9 and abs(high - 200.0) < 1e-9, "RTData range %g %g" % (low, high))
area = sm.Fetch(IntegrateVariables(Input=c)).GetCellData().GetArray("Area").GetValue(0)
print("INFO %s area %.9g" % (NAME, area))
check(abs(area - AREA) < 1e-3, "area %.9g, natively %.9g" % (area, AREA))
out = tempfile.mkdtemp(prefix="xsim_pvbatch_")
try:
    SaveData(os.path.join(out, "contour.pvtp"), proxy=c)
    summary = open(os.path.join(out, "contour.pvtp")).read()
    listed = summary.count("<Piece ")
    check(listed == ranks, "the summary file lists %d pieces of %d" % (listed, ranks))
    pieces = sorted(os.listdir(os.path.join(out, "contour")))
    check(pieces == ["contour_%d.vtp" % i for i in range(ranks)], "piece files %s" % pieces)
finally:
    shutil.rmtree(out, ignore_errors=True)
for f in failures:
    print("FAIL %s: %s" % (NAME, f))
if not failures:
    print("PASS %s" % NAME)
sys.stdout.flush()
