from bgcli.cli import main

main()
