set terminal png size 900,560
set datafile missing 'NaN'
set key top left
set grid
set output 'raid1-4k-r100-iops.png'
set title 'RAID1, 4 KiB random read: IOPS vs outstanding I/O'
set xlabel 'outstanding I/O (numjobs x iodepth)'
set ylabel 'IOPS'
set logscale x 2
plot 'raid1-4k-r100.dat' using 1:2 with linespoints lw 2 title 'vraid', \
     '' using 1:5 with linespoints lw 2 title 'md', \
     '' using 1:8 with lines dt 2 title 'model limit'
unset logscale x
set output 'raid1-4k-r100-lat.png'
set title 'RAID1, 4 KiB random read: latency vs IOPS (points: 1, 2, 4 ... outstanding I/O)'
set xlabel 'IOPS'
set ylabel 'latency (us)'
set logscale y
plot 'raid1-4k-r100.dat' using 2:3 with linespoints lw 2 title 'vraid mean', \
     '' using 5:6 with linespoints lw 2 title 'md mean', \
     '' using 2:4 with linespoints dt 2 title 'vraid p99', \
     '' using 5:7 with linespoints dt 2 title 'md p99'
